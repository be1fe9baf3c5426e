import Imaging
import SeededRandom

/// Pictures the tests draw with known pixels.
enum TestImages {
    /// RGB: a horizontal red ramp, a vertical green ramp, blue from both.
    static func gradient(width: Int, height: Int) -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(UInt8(x * 255 / max(1, width - 1)))
                pixels.append(UInt8(y * 255 / max(1, height - 1)))
                pixels.append(UInt8((x + y) * 255 / max(1, width + height - 2)))
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// Four flat quadrants of distinct colours: red, green / blue, yellow.
    static let quadrantColours: [[UInt8]] = [[230, 20, 20], [20, 200, 20], [20, 20, 230], [240, 230, 20]]

    static func quadrants(width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, filledWith: [0, 0, 0])
        for y in 0..<height {
            for x in 0..<width {
                let index = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                bitmap.set(x: x, y: y, to: quadrantColours[index])
            }
        }
        return bitmap
    }

    /// A photo-like scene: a light two-tone background with mild noise and a dark garment
    /// (a T-shirt shape: a body and two sleeves) off centre.
    static func photo(width: Int, height: Int, seed: UInt64 = 1) -> Bitmap {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let bodyLeft = width * 3 / 10, bodyRight = width * 7 / 10
        let top = height / 5, bottom = height * 17 / 20
        let sleeveBottom = height * 2 / 5
        for y in 0..<height {
            for x in 0..<width {
                let inBody = x >= bodyLeft && x < bodyRight && y >= top && y < bottom
                let inSleeves = x >= width / 8 && x < width * 7 / 8 && y >= top && y < sleeveBottom
                let noise = Int(random.next() % 9) - 4
                var colour: [Int]
                if inBody || inSleeves {
                    colour = [40, 60, 120]
                } else if y > height * 3 / 4 {
                    colour = [200, 190, 170]    // a floor below
                } else {
                    colour = [235, 232, 228]    // a wall
                }
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = UInt8(clamping: colour[c] + noise) }
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// An RGB picture whose colour at (x, y) is `colour(x, y)` plus a grain of 0 to 8 on
    /// every channel, fixed by the position, so that neighbouring pixels differ a little, as
    /// in a photo.
    static func grained(width: Int, height: Int, _ colour: (_ x: Int, _ y: Int) -> [UInt8]) -> Bitmap {
        var photo = Bitmap(width: width, height: height, filledWith: [0, 0, 0])
        for y in 0..<height {
            for x in 0..<width {
                let grain = UInt8((x * 7 + y * 13) % 9)
                photo.set(x: x, y: y, to: colour(x, y).map { $0 + grain })
            }
        }
        return photo
    }

    /// Colour difference per channel, summed.
    static func distance<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Int {
        zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    }
}
