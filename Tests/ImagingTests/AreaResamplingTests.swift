import Imaging
import Testing

/// Area resizing gives, byte for byte, what the two whole passes it is defined by give:
/// every source row summed across into a float image, then every output row summed down
/// from it, each sum from 0 in source order, and rounded. Stored thumbnails and tensors are
/// made by it, so a change that moved any sum by one ulp would change what imports store.
@Suite struct AreaResamplingTests {
    /// The definition, as plainly as it can be written: two whole float images.
    static func reference(_ image: Bitmap, width toWidth: Int, height toHeight: Int) -> [UInt8] {
        func spans(_ source: Int, _ target: Int) -> [[(index: Int, weight: Float)]] {
            let scale = Double(source) / Double(target)
            return (0..<target).map { j in
                let low = Double(j) * scale, high = Double(j + 1) * scale
                let first = min(source - 1, Int(low.rounded(.down)))
                let last = max(first, min(source - 1, Int(high.rounded(.up)) - 1))
                return (first...last).map { i in
                    (i, Float(max(0, min(high, Double(i + 1)) - max(low, Double(i))) / scale))
                }
            }
        }
        let (columns, rows, channels) = (spans(image.width, toWidth), spans(image.height, toHeight), image.channels)
        var across = [Float](repeating: 0, count: image.height * toWidth * channels)
        for y in 0..<image.height {
            for x in 0..<toWidth {
                for c in 0..<channels {
                    var sum: Float = 0
                    for (i, weight) in columns[x] {
                        sum += weight * Float(image.pixels[(y * image.width + i) * channels + c])
                    }
                    across[(y * toWidth + x) * channels + c] = sum
                }
            }
        }
        var down = [Float](repeating: 0, count: toHeight * toWidth * channels)
        for y in 0..<toHeight {
            for (i, weight) in rows[y] {
                for v in 0..<toWidth * channels {
                    down[y * toWidth * channels + v] += weight * across[i * toWidth * channels + v]
                }
            }
        }
        return down.map { UInt8(min(255, max(0, $0) + 0.5)) }
    }

    static func noise(width: Int, height: Int, channels: Int, seed: UInt64) -> Bitmap {
        var state = seed
        let pixels = (0..<width * height * channels).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// Shrinking by whole and fractional factors (a photo fitted to 256, a thumbnail drawn into
    /// 28x28), one-pixel sides, and enlarging (previews), gray and RGB (a Bitmap holds no other).
    @Test(arguments: [
        (400, 533, 192, 256), (320, 240, 256, 192), (192, 256, 28, 28), (256, 256, 28, 28),
        (97, 13, 5, 3), (1, 40, 1, 7), (40, 1, 9, 1), (28, 28, 140, 140), (3, 5, 17, 11), (7, 7, 6, 8),
    ])
    func matchesTheTwoWholePassesByteForByte(size: (Int, Int, Int, Int)) {
        let (width, height, toWidth, toHeight) = size
        for channels in [1, 3] {
            let image = Self.noise(width: width, height: height, channels: channels, seed: UInt64(width * 31 + channels))
            let resized = image.resized(width: toWidth, height: toHeight)
            #expect(resized.width == toWidth && resized.height == toHeight && resized.channels == channels)
            #expect(resized.pixels == Self.reference(image, width: toWidth, height: toHeight),
                    "\(width)x\(height)x\(channels) to \(toWidth)x\(toHeight)")
        }
    }
}
