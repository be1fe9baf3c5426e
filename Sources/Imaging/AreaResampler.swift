/// Resizing by area averaging: every output pixel is the mean of the source area it covers,
/// partial source pixels weighted by the part covered. Separable: rows first, then columns.
/// When the size does not change the weights are exactly 1, so the image comes back unchanged.
///
/// Each output sample is one fixed sum: the row pass sums its source samples times their
/// weights, left to right, from 0; the column pass sums those row sums times their weights,
/// top to bottom, from 0. The passes go down the source together: a row is summed across,
/// added into the output rows it covers, and an output row is handed on as soon as its last
/// source row is in. So the working memory is one row and the few output rows open at once, never
/// two whole images of floats (1.2 MB written and read back for a 400x533 photo fitted to 256
/// pixels), while every sum is taken in the same order as before.
///
/// Each source row is first turned into floats in one pass, so the sums read floats: the
/// conversion is done many samples at a time instead of once per term (and per term it
/// waited on the register it wrote, serialising the sums). The sums go a vector at a time,
/// each lane holding one sum taken alone: an RGB pixel's three channels, or the same column
/// of four gray rows. No sum changes order, so the results are those of one sum at a time.
struct AreaResampler {
    /// For each output index, consecutive source indices from `starts[j]` with weights
    /// `weights[offsets[j]..<offsets[j + 1]]`; flat arrays keep the inner loops tight.
    struct Spans {
        var starts: [Int] = []
        var offsets: [Int] = [0]
        var weights: [Float] = []

        init(from source: Int, to target: Int) {
            var starts: [Int] = [], offsets = [0], weights: [Float] = []
            Self.forEachWeight(from: source, to: target) { j, i, weight in
                if j == starts.count {
                    // j's first source index: j - 1's weights end here.
                    if j > 0 { offsets.append(weights.count) }
                    starts.append(i)
                }
                weights.append(weight)
            }
            offsets.append(weights.count)
            (self.starts, self.offsets, self.weights) = (starts, offsets, weights)
        }

        /// `body(j, i, weight)` for each output index j and each source index i it reads, in
        /// order: i's weight in j, the share of j's span i covers.
        static func forEachWeight(from source: Int, to target: Int, _ body: (Int, Int, Float) -> Void) {
            let scale = Double(source) / Double(target)
            for j in 0..<target {
                let low = Double(j) * scale
                let high = Double(j + 1) * scale
                let first = min(source - 1, Int(low.rounded(.down)))
                let last = max(first, min(source - 1, Int(high.rounded(.up)) - 1))
                for i in first...last {
                    let covered = min(high, Double(i + 1)) - max(low, Double(i))
                    body(j, i, Float(max(0, covered) / scale))
                }
            }
        }

        /// The last source index output `j` reads.
        func last(_ j: Int) -> Int { starts[j] + offsets[j + 1] - offsets[j] - 1 }
    }

    /// Resizes interleaved samples; `load` turns a source sample into a float. `emit` gets
    /// every output row once, top to bottom (its index and its `toWidth * channels` sums);
    /// the buffer is reused after it returns.
    static func resize<Sample>(_ samples: [Sample], width: Int, height: Int, channels: Int,
                               toWidth: Int, toHeight: Int, load: (Sample) -> Float,
                               emit: (Int, UnsafeBufferPointer<Float>) -> Void) {
        precondition(samples.count == width * height * channels, "sample count does not match the size")
        precondition(toWidth > 0 && toHeight > 0, "a resized image has at least one pixel")
        let columns = Spans(from: width, to: toWidth)
        let rows = Spans(from: height, to: toHeight)
        let rowLength = toWidth * channels
        // Output rows open at once: those whose spans hold one source row. Spans only move
        // down, so they are consecutive and a ring of that many rows holds them all.
        var open = 1, first = 0
        for y in 0..<toHeight {
            while rows.last(first) < rows.starts[y] { first += 1 }
            open = max(open, y - first + 1)
        }
        // Working memory: the source rows in hand as floats (four for a gray image, else one
        // and one float more: the last RGB pixel is read as four), a gray image's four rows
        // side by side (a vector per column), those rows summed across, and the output rows
        // open at once.
        let sourceRowLength = width * channels
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(4 * width, sourceRowLength + 1))
        let columnsOfFour = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: channels == 1 ? width : 1)
        let across = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4 * rowLength)
        let ring = UnsafeMutableBufferPointer<Float>.allocate(capacity: open * rowLength)
        defer {
            block.deallocate()
            columnsOfFour.deallocate()
            across.deallocate()
            ring.deallocate()
        }
        block[sourceRowLength] = 0
        let lastSourceY = rows.last(toHeight - 1)
        samples.withUnsafeBufferPointer { source in
            columns.starts.withUnsafeBufferPointer { starts in
                columns.offsets.withUnsafeBufferPointer { offsets in
                    columns.weights.withUnsafeBufferPointer { weights in
                        let columns = (starts: starts, offsets: offsets, weights: weights)
                        // Output rows lowest..<next have been started and not yet emitted.
                        var lowest = 0, next = 0
                        var sourceY = rows.starts[0]
                        while sourceY <= lastSourceY {
                            // Gray rows are summed across four at a time, one in each lane of
                            // a vector (every column's weights are the same on every row).
                            let count = channels == 1 ? min(4, lastSourceY - sourceY + 1) : 1
                            if count == 4 {
                                // Each row is turned into floats along its length (many at a
                                // time), then the four are laid side by side.
                                let rows = block.baseAddress!
                                for lane in 0..<4 {
                                    let first = (sourceY + lane) * width, row = rows + lane * width
                                    for i in 0..<width { row[i] = load(source[first + i]) }
                                }
                                for i in 0..<width {
                                    columnsOfFour[i] = SIMD4(rows[i], rows[width + i], rows[2 * width + i], rows[3 * width + i])
                                }
                                sumAcrossFourGrayRows(UnsafeBufferPointer(columnsOfFour), columns: columns, into: across,
                                                      rowLength: rowLength)
                            } else {
                                for lane in 0..<count {
                                    let first = (sourceY + lane) * sourceRowLength
                                    for i in 0..<sourceRowLength { block[i] = load(source[first + i]) }
                                    sumAcross(UnsafeBufferPointer(block), channels: channels, columns: columns,
                                              into: UnsafeMutableBufferPointer(rebasing: across[lane * rowLength..<(lane + 1) * rowLength]))
                                }
                            }
                            // Each row summed across goes down into its output rows, in order.
                            for lane in 0..<count {
                                let y = sourceY + lane
                                let summed = across.baseAddress! + lane * rowLength
                                while next < toHeight && rows.starts[next] <= y {
                                    (ring.baseAddress! + (next % open) * rowLength).update(repeating: 0, count: rowLength)
                                    next += 1
                                }
                                for output in lowest..<next {
                                    let weight = rows.weights[rows.offsets[output] + y - rows.starts[output]]
                                    let target = ring.baseAddress! + (output % open) * rowLength
                                    for i in 0..<rowLength {
                                        target[i] += weight * summed[i]
                                    }
                                }
                                while lowest < next && rows.last(lowest) == y {
                                    emit(lowest, UnsafeBufferPointer(start: ring.baseAddress! + (lowest % open) * rowLength,
                                                                     count: rowLength))
                                    lowest += 1
                                }
                            }
                            sourceY += count
                        }
                    }
                }
            }
        }
    }

    /// Four gray source rows side by side (`columnsOfFour[i]` holds sample `i` of each),
    /// summed across into four rows of `out` (`rowLength` apart): each lane's sums are those
    /// of its row alone, left to right, from 0.
    @inline(__always)
    private static func sumAcrossFourGrayRows(
        _ columnsOfFour: UnsafeBufferPointer<SIMD4<Float>>,
        columns: (starts: UnsafeBufferPointer<Int>, offsets: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>),
        into out: UnsafeMutableBufferPointer<Float>, rowLength: Int
    ) {
        let (starts, offsets, weights) = columns
        for x in 0..<starts.count {
            var at = starts[x]
            var sum = SIMD4<Float>()
            for k in offsets[x]..<offsets[x + 1] {
                sum += SIMD4(repeating: weights[k]) * columnsOfFour[at]
                at += 1
            }
            for lane in 0..<4 { out[lane * rowLength + x] = sum[lane] }
        }
    }

    /// One source row, as floats (`row`, one float longer than the row), summed across: for
    /// each output column, its source samples times their weights, left to right, from 0.
    @inline(__always)
    private static func sumAcross(
        _ row: UnsafeBufferPointer<Float>, channels: Int,
        columns: (starts: UnsafeBufferPointer<Int>, offsets: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>),
        into out: UnsafeMutableBufferPointer<Float>
    ) {
        let (starts, offsets, weights) = columns
        let samples = row.baseAddress!
        switch channels {
        case 3:
            // The common case: the three channels of a pixel as the first lanes of one vector
            // (the fourth lane, the next sample, is summed and dropped), each lane summed in
            // the same order as alone.
            for x in 0..<starts.count {
                var at = starts[x] * 3
                var sum = SIMD4<Float>()
                for k in offsets[x]..<offsets[x + 1] {
                    let pixel = UnsafeRawPointer(samples + at).loadUnaligned(as: SIMD4<Float>.self)
                    sum += SIMD4(repeating: weights[k]) * pixel
                    at += 3
                }
                out[3 * x] = sum[0]
                out[3 * x + 1] = sum[1]
                out[3 * x + 2] = sum[2]
            }
        default:
            for x in 0..<starts.count {
                let base = starts[x] * channels
                for c in 0..<channels {
                    var sum: Float = 0
                    var at = base + c
                    for k in offsets[x]..<offsets[x + 1] {
                        sum += weights[k] * samples[at]
                        at += channels
                    }
                    out[x * channels + c] = sum
                }
            }
        }
    }

    /// Resizes interleaved samples to floats.
    static func resize<Sample>(_ samples: [Sample], width: Int, height: Int, channels: Int,
                               toWidth: Int, toHeight: Int, load: (Sample) -> Float) -> [Float] {
        let rowLength = toWidth * channels
        // Every output row is emitted once, so every sample is written.
        return [Float](overwriting: toHeight * rowLength) { out in
            resize(samples, width: width, height: height, channels: channels, toWidth: toWidth, toHeight: toHeight,
                   load: load) { y, row in
                (out.baseAddress! + y * rowLength).update(from: row.baseAddress!, count: rowLength)
            }
        }
    }

    static func resize(_ samples: [Float], width: Int, height: Int, channels: Int,
                       toWidth: Int, toHeight: Int) -> [Float] {
        resize(samples, width: width, height: height, channels: channels, toWidth: toWidth, toHeight: toHeight) { $0 }
    }
}

extension Bitmap {
    /// The image resized to exactly `width` x `height` by area averaging (aspect not kept).
    public func resized(width toWidth: Int, height toHeight: Int) -> Bitmap {
        if toWidth == width && toHeight == height { return self }
        let rowLength = toWidth * channels
        // Every output row is emitted once, so every byte is written.
        let bytes = [UInt8](overwriting: toHeight * rowLength) { out in
            AreaResampler.resize(pixels, width: width, height: height, channels: channels,
                                 toWidth: toWidth, toHeight: toHeight, load: { Float($0) }) { y, row in
                let target = out.baseAddress! + y * rowLength
                // Values are never negative: adding a half and truncating rounds, without a libm call.
                for i in 0..<rowLength { target[i] = UInt8(min(255, max(0, row[i]) + 0.5)) }
            }
        }
        return Bitmap(width: toWidth, height: toHeight, channels: channels, pixels: bytes)
    }

    /// The image shrunk so its longest side is at most `longestSide`, aspect kept;
    /// an image already small enough is returned as it is (never enlarged).
    public func fitted(longestSide: Int) -> Bitmap {
        let size = Self.fittedSize(width: width, height: height, longestSide: longestSide)
        return resized(width: size.width, height: size.height)
    }

    /// The size `fitted(longestSide:)` gives, without the pixels (what a scaled decode asks for).
    public static func fittedSize(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide else { return (width, height) }
        let scale = Double(longestSide) / Double(longest)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
