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
/// finds, which a crop of the background moves less (nil where it finds none); `crops` of the
/// whole picture as if cropped by `cropShare` on one side or two (the ten ways), so that a
/// cropped copy's `whole` comes near one of its source's `crops` (docs/duplicates.md).
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
    /// The whole picture's hash with `cropShare` of it left off, in `CropWindow.all`'s order.
    public var crops: [UInt64]
    /// The garment's box's hash with `cropShare` of it left off, in `CropWindow.all`'s order
    /// (empty where no garment is found).
    public var garmentCrops: [UInt64]

    public init(whole: UInt64, garment: UInt64?, crops: [UInt64], garmentCrops: [UInt64] = []) {
        self.whole = whole
        self.garment = garment
        self.crops = crops
        self.garmentCrops = garmentCrops
    }

    /// Takes the fingerprints of `image` (a stored thumbnail as decoded) as import does.
    public init(measuring image: Bitmap, recipe: PhotoRecipe = PhotoRecipe()) {
        let working = recipe.workingCopy(ofRGB: image.rgb())
        let mask = recipe.garmentMask(width: working.width, height: working.height, colours: working.samples)
        self.init(width: working.width, height: working.height, samples: working.samples, mask: mask)
    }

    /// From working-size RGB samples (0...255) and the garment's mask on them (nil: none found).
    package init(width: Int, height: Int, samples: [Float], mask: Mask?) {
        let gray = [Float](overwriting: width * height) { gray in
            for pixel in 0..<gray.count {
                gray[pixel] = 0.299 * samples[3 * pixel] + 0.587 * samples[3 * pixel + 1] + 0.114 * samples[3 * pixel + 2]
            }
        }
        whole = Self.hash(gray, width: width, height: height)
        crops = Self.cropHashes(gray, width: width, height: height)
        guard let box = mask?.boundingBox else {
            garment = nil
            garmentCrops = []
            return
        }
        let inside = [Float](overwriting: box.width * box.height) { inside in
            gray.withUnsafeBufferPointer { gray in
                for row in 0..<box.height {
                    (inside.baseAddress! + row * box.width)
                        .update(from: gray.baseAddress! + (box.y + row) * width + box.x, count: box.width)
                }
            }
        }
        garment = Self.hash(inside, width: box.width, height: box.height)
        garmentCrops = Self.cropHashes(inside, width: box.width, height: box.height)
    }

    /// The hash of each crop window, as `hash` takes it of the window, but with the area
    /// average folded into the cosines (both are linear, and separable): along each axis, a
    /// pixel's weight is the sum of the cosines of the cells it falls in, times its share of
    /// each. So a window costs one sum over its pixels per frequency, where resampling each of
    /// the ten windows first cost import about 5% of its time. The sums come in another order
    /// than `hash`'s, so a bit whose coefficient is within rounding of the median can differ.
    static func cropHashes(_ gray: [Float], width: Int, height: Int) -> [UInt64] {
        var columnBases: [Int: [SIMD8<Float>]] = [:], rowBases: [Int: [SIMD8<Float>]] = [:]
        // Along each row of the picture, for each window's columns (by where they start and
        // how many): rowSums[y][u]; (height, 8). Four spans of columns serve the ten windows.
        var rowSums: [Int: [SIMD8<Float>]] = [:]
        return gray.withUnsafeBufferPointer { gray in
            CropWindow.all.map { window in
                let box = window.box(width: width, height: height)
                let (x0, w, y0, h) = (box.x, box.width, box.y, box.height)
                let columns = x0 << 32 | w
                if rowSums[columns] == nil {
                    let basis = columnBases[w] ?? foldedCosines(w)
                    columnBases[w] = basis
                    rowSums[columns] = basis.withUnsafeBufferPointer { basis in
                        (0..<height).map { y in
                            var sum = SIMD8<Float>.zero
                            let row = gray.baseAddress! + y * width + x0
                            for x in 0..<w { sum += row[x] * basis[x] }
                            return sum
                        }
                    }
                }
                let basis = rowBases[h] ?? foldedCosines(h)
                rowBases[h] = basis
                let sums = rowSums[columns]!
                var coefficients = [Float](repeating: 0, count: frequencies * frequencies)
                for v in 0..<frequencies {
                    var sum = SIMD8<Float>.zero
                    for y in 0..<h { sum += basis[y][v] * sums[y0 + y] }
                    for u in 0..<frequencies { coefficients[v * frequencies + u] = sum[u] }
                }
                return bits(coefficients)
            }
        }
    }

    /// For each of `count` pixels along an axis, the kept frequencies' cosines of the square's
    /// cells it is averaged into, times its weight in each (`AreaResampler`'s spans).
    private static func foldedCosines(_ count: Int) -> [SIMD8<Float>] {
        let spans = AreaResampler.Spans(from: count, to: side)
        var basis = [SIMD8<Float>](repeating: .zero, count: count)
        for cell in 0..<side {
            for k in spans.offsets[cell]..<spans.offsets[cell + 1] {
                basis[spans.starts[cell] + k - spans.offsets[cell]] += spans.weights[k] * cosines[cell]
            }
        }
        return basis
    }

    /// What a crop window leaves off each side: `cropShare` of the picture's width or height,
    /// rounded to working pixels. A crop of 3% to 10% on one side or two then lands within
    /// about 4% of one of the ten windows, where the whole picture's hash, squeezed to a square,
    /// has moved every low frequency.
    public static let cropShare = 0.07

    /// The sides a crop window leaves off: one (four ways) or two (six ways).
    public struct CropWindow: Sendable {
        public var left = false, top = false, right = false, bottom = false

        public static let all: [CropWindow] = {
            let sides: [WritableKeyPath<CropWindow, Bool>] = [\.left, \.top, \.right, \.bottom]
            var windows: [CropWindow] = []
            for first in sides.indices {
                var one = CropWindow()
                one[keyPath: sides[first]] = true
                windows.append(one)
            }
            for first in sides.indices {
                for second in (first + 1)..<sides.count {
                    var two = CropWindow()
                    two[keyPath: sides[first]] = true
                    two[keyPath: sides[second]] = true
                    windows.append(two)
                }
            }
            return windows
        }()

        /// The window on a picture of `width` x `height` pixels.
        public func box(width: Int, height: Int) -> PixelRect {
            let across = Int((Double(width) * ImageFingerprint.cropShare).rounded())
            let down = Int((Double(height) * ImageFingerprint.cropShare).rounded())
            let x = left ? across : 0, y = top ? down : 0
            return PixelRect(x: x, y: y, width: width - x - (right ? across : 0), height: height - y - (bottom ? down : 0))
        }
    }

    /// Side of the gray square the DCT is taken of.
    public static let side = 32
    /// Frequencies kept on each axis: 8x8 = 64 bits.
    public static let frequencies = 8

    /// cos((2x + 1) u pi / 64) for the square's positions x (rows) and the kept frequencies u
    /// (lanes), so that one vector sum carries all eight frequencies.
    private static let cosines: [SIMD8<Float>] = (0..<side).map { x in
        SIMD8((0..<frequencies).map { u in Float(cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * side))) })
    }

    /// The DCT hash of one gray picture (steps 1 to 3). Each coefficient is summed in the
    /// order of the positions, eight frequencies at once in the lanes of a vector.
    public static func hash(_ gray: [Float], width: Int, height: Int) -> UInt64 {
        let square = AreaResampler.resize(gray, width: width, height: height, channels: 1, toWidth: side, toHeight: side)
        var coefficients = [Float](repeating: 0, count: frequencies * frequencies)
        square.withUnsafeBufferPointer { square in
            cosines.withUnsafeBufferPointer { cosines in
                // Along each row: rows[y][u] = sum over x of square[y][x] * cos(u, x); (32, 8).
                var rows = [SIMD8<Float>](repeating: .zero, count: side)
                for y in 0..<side {
                    var sum = SIMD8<Float>.zero
                    for x in 0..<side { sum += square[y * side + x] * cosines[x] }
                    rows[y] = sum
                }
                // Down each column: coefficients[v][u] = sum over y of cos(v, y) * rows[y][u]; (8, 8).
                for v in 0..<frequencies {
                    var sum = SIMD8<Float>.zero
                    for y in 0..<side { sum += cosines[y][v] * rows[y] }
                    for u in 0..<frequencies { coefficients[v * frequencies + u] = sum[u] }
                }
            }
        }
        return bits(coefficients)
    }

    /// Step 3: one bit per coefficient, set where it is above the median of the 64.
    private static func bits(_ coefficients: [Float]) -> UInt64 {
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
