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
        let windows = CropWindow.all.map { $0.box(width: width, height: height) }
        // A window's columns start at 0 or `across` and are one of three counts, its rows
        // likewise: the cosines folded for each count once, and along each row of the picture
        // the sums for each span of columns once (four spans serve the ten windows):
        // rowSums[span][y][u]; (height, 8).
        var bases: [Int: [SIMD8<Float>]] = [:]
        func basis(_ count: Int) -> [SIMD8<Float>] {
            if let known = bases[count] { return known }
            let made = foldedCosines(count)
            bases[count] = made
            return made
        }
        var spans: [(x: Int, width: Int)] = []
        var rowSums: [[SIMD8<Float>]] = []
        return gray.withUnsafeBufferPointer { gray in
            windows.map { box in
                let span = spans.firstIndex { $0 == (box.x, box.width) } ?? {
                    spans.append((box.x, box.width))
                    rowSums.append(basis(box.width).withUnsafeBufferPointer { basis in
                        [SIMD8<Float>](unsafeUninitializedCapacity: height) { sums, count in
                            Self.sumRows(gray.baseAddress! + box.x, rowLength: width, rows: height, basis: basis, into: sums)
                            count = height
                        }
                    })
                    return spans.count - 1
                }()
                return basis(box.height).withUnsafeBufferPointer { rows in
                    rowSums[span].withUnsafeBufferPointer { sums in
                        Self.bitsOfColumns(sums.baseAddress! + box.y, basis: rows)
                    }
                }
            }
        }
    }

    /// For each of `count` pixels along an axis, the kept frequencies' cosines of the square's
    /// cells it is averaged into, times its weight in each (`AreaResampler.Spans`' weights,
    /// taken as they come rather than stored).
    private static func foldedCosines(_ count: Int) -> [SIMD8<Float>] {
        var basis = [SIMD8<Float>](repeating: .zero, count: count)
        AreaResampler.Spans.forEachWeight(from: count, to: side) { cell, pixel, weight in
            basis[pixel] += weight * cosines[cell]
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
        return square.withUnsafeBufferPointer { square in
            cosines.withUnsafeBufferPointer { cosines in
                withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: side) { rows in
                    // Along each row: rows[y][u] = sum over x of square[y][x] * cos(u, x); (32, 8).
                    sumRows(square.baseAddress!, rowLength: side, rows: side, basis: cosines, into: rows)
                    // Down each column: coefficients[v][u] = sum over y of cos(v, y) * rows[y][u]; (8, 8).
                    return bitsOfColumns(UnsafePointer(rows.baseAddress!), basis: cosines)
                }
            }
        }
    }

    /// `sums[y]` = the sum over x of `picture[y * rowLength + x] * basis[x]`, for x below
    /// `basis.count`: eight frequencies at once in a vector's lanes. Four rows are summed side
    /// by side, each in the order of its pixels as one alone would be (the same result), so
    /// that the processor is not waiting on one sum's additions.
    static func sumRows(_ picture: UnsafePointer<Float>, rowLength: Int, rows: Int, basis: UnsafeBufferPointer<SIMD8<Float>>,
                        into sums: UnsafeMutableBufferPointer<SIMD8<Float>>) {
        var y = 0
        while y + 4 <= rows {
            let row = picture + y * rowLength
            var (s0, s1, s2, s3) = (SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero)
            for x in 0..<basis.count {
                let weights = basis[x]
                s0 += row[x] * weights
                s1 += row[rowLength + x] * weights
                s2 += row[2 * rowLength + x] * weights
                s3 += row[3 * rowLength + x] * weights
            }
            (sums[y], sums[y + 1], sums[y + 2], sums[y + 3]) = (s0, s1, s2, s3)
            y += 4
        }
        while y < rows {
            let row = picture + y * rowLength
            var sum = SIMD8<Float>.zero
            for x in 0..<basis.count { sum += row[x] * basis[x] }
            sums[y] = sum
            y += 1
        }
    }

    /// The hash of the 8x8 coefficients, `[v * 8 + u]` = the sum over y of `basis[y][v] *
    /// sums[y][u]`, for y below `basis.count`. The eight frequencies v are summed side by side,
    /// each in the order of the rows as one alone would be.
    static func bitsOfColumns(_ sums: UnsafePointer<SIMD8<Float>>, basis: UnsafeBufferPointer<SIMD8<Float>>) -> UInt64 {
        var (c0, c1, c2, c3) = (SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero)
        var (c4, c5, c6, c7) = (SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero)
        for y in 0..<basis.count {
            let (weights, row) = (basis[y], sums[y])
            c0 += weights[0] * row
            c1 += weights[1] * row
            c2 += weights[2] * row
            c3 += weights[3] * row
            c4 += weights[4] * row
            c5 += weights[5] * row
            c6 += weights[6] * row
            c7 += weights[7] * row
        }
        return withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: frequencies) { coefficients in
            (coefficients[0], coefficients[1], coefficients[2], coefficients[3]) = (c0, c1, c2, c3)
            (coefficients[4], coefficients[5], coefficients[6], coefficients[7]) = (c4, c5, c6, c7)
            return coefficients.withMemoryRebound(to: Float.self) { bits(UnsafeBufferPointer($0)) }
        }
    }

    /// Step 3: one bit per coefficient, set where it is above the median of the 64.
    private static func bits(_ coefficients: UnsafeBufferPointer<Float>) -> UInt64 {
        let median = withUnsafeTemporaryAllocation(of: Float.self, capacity: coefficients.count) { order in
            _ = order.initialize(from: coefficients)
            return middle(of: order)
        }
        var bits: UInt64 = 0
        for (index, coefficient) in coefficients.enumerated() where coefficient > median {
            bits |= 1 << UInt64(index)
        }
        return bits
    }

    /// The mean of the two middle values of an even number of them (what sorting would put at
    /// `count / 2 - 1` and `count / 2`), found by selection, which reorders `values`: eleven
    /// hashes an image, where sorting each copy of the 64 was a tenth of their cost.
    package static func middle(of values: UnsafeMutableBufferPointer<Float>) -> Float {
        var values = values
        let k = values.count / 2 - 1
        let lower = selectRank(k, in: &values)
        // Everything after k is at least as large: the next value up is the least of them.
        var upper = values[k + 1]
        for index in (k + 2)..<values.count { upper = min(upper, values[index]) }
        return (lower + upper) / 2
    }

    /// How many bits `a` and `b` differ in.
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }
}
