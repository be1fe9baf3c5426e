#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Perceptual fingerprints of an image: 64 bits each that stay nearly the same when the photo
/// is resized, recompressed, brightened or cropped a little, and differ in about half their
/// bits between unrelated photos, so that the number of bits two fingerprints differ in (their
/// Hamming distance) tells the same photo under another encoding from another photo. `whole`
/// is taken of the whole picture; `garment` of the box around the garment the photo recipe
/// finds, which a crop of the background moves less (nil where it finds none).
///
/// Each is a DCT hash (as pHash's), taken on the photo recipe's working copy of the stored
/// thumbnail (96 pixels on the longest side), which import makes anyway, so it costs a few
/// microseconds:
/// 1. The picture in gray (Rec. 601 weights), area-averaged to 32x32, its aspect not kept.
/// 2. The lowest 8x8 frequencies of its 2-D DCT-II (the rest are not computed).
/// 3. One bit per frequency, row by row from the lowest: set where its coefficient is above
///    the median of the 64. A brightness change moves every coefficient's size together (and
///    the DC term, always above), so the bits stay.
public struct ImageFingerprint: Sendable, Equatable {
    public var whole: UInt64
    public var garment: UInt64?

    public init(whole: UInt64, garment: UInt64?) {
        self.whole = whole
        self.garment = garment
    }

    /// Takes the fingerprints of `image` (a stored thumbnail as decoded) as import does.
    public init(measuring image: Bitmap, recipe: PhotoRecipe = PhotoRecipe()) {
        let working = recipe.workingCopy(ofRGB: image.rgb())
        let mask = recipe.garmentMask(width: working.width, height: working.height, colours: working.samples)
        self.init(width: working.width, height: working.height, samples: working.samples, mask: mask)
    }

    /// From working-size RGB samples (0...255) and the garment's mask on them (nil: none found).
    package init(width: Int, height: Int, samples: [Float], mask: Mask?) {
        var gray = [Float](repeating: 0, count: width * height)
        for pixel in 0..<gray.count {
            gray[pixel] = 0.299 * samples[3 * pixel] + 0.587 * samples[3 * pixel + 1] + 0.114 * samples[3 * pixel + 2]
        }
        whole = Self.hash(gray, width: width, height: height)
        garment = mask.flatMap { $0.boundingBox }.map { box in
            var inside = [Float]()
            inside.reserveCapacity(box.width * box.height)
            for y in box.y..<box.maxY { inside.append(contentsOf: gray[(y * width + box.x)..<(y * width + box.maxX)]) }
            return Self.hash(inside, width: box.width, height: box.height)
        }
    }

    /// Side of the gray square the DCT is taken of.
    public static let side = 32
    /// Frequencies kept on each axis: 8x8 = 64 bits.
    public static let frequencies = 8

    /// cos((2x + 1) u pi / 64) for the kept frequencies u (rows) and the square's positions x.
    private static let cosines: [Float] = (0..<frequencies).flatMap { u in
        (0..<side).map { x in Float(cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * side))) }
    }

    /// The DCT hash of one gray picture (steps 1 to 3).
    public static func hash(_ gray: [Float], width: Int, height: Int) -> UInt64 {
        let square = AreaResampler.resize(gray, width: width, height: height, channels: 1, toWidth: side, toHeight: side)
        // Along each row: rows[y][u] = sum over x of square[y][x] * cos(u, x); (32, 8).
        var rows = [Float](repeating: 0, count: side * frequencies)
        for y in 0..<side {
            for u in 0..<frequencies {
                var sum: Float = 0
                for x in 0..<side { sum += square[y * side + x] * cosines[u * side + x] }
                rows[y * frequencies + u] = sum
            }
        }
        // Down each column: coefficients[v][u] = sum over y of cos(v, y) * rows[y][u]; (8, 8).
        var coefficients = [Float](repeating: 0, count: frequencies * frequencies)
        for v in 0..<frequencies {
            for u in 0..<frequencies {
                var sum: Float = 0
                for y in 0..<side { sum += cosines[v * side + y] * rows[y * frequencies + u] }
                coefficients[v * frequencies + u] = sum
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for (index, coefficient) in coefficients.enumerated() where coefficient > median {
            bits |= 1 << UInt64(index)
        }
        return bits
    }

    /// How many bits `a` and `b` differ in.
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }
}
