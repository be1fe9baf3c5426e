/// Resizing by area averaging: every output pixel is the mean of the source area it covers,
/// partial source pixels weighted by the part covered. Separable: rows first, then columns.
/// When the size does not change the weights are exactly 1, so the image comes back unchanged.
///
/// Each output sample is one fixed sum: the row pass sums its source samples times their
/// weights, left to right, from 0; the column pass sums those row sums times their weights,
/// top to bottom, from 0. The passes go a source row at a time: a row is summed across, added
/// into the output rows it covers, and an output row is handed on as soon as its last source
/// row is in. So the working memory is one row and the few output rows open at once, never
/// two whole images of floats (1.2 MB written and read back for a 400x533 photo fitted to 256
/// pixels), while every sum is taken in the same order as before.
struct AreaResampler {
    /// For each output index, consecutive source indices from `starts[j]` with weights
    /// `weights[offsets[j]..<offsets[j + 1]]`; flat arrays keep the inner loops tight.
    private struct Spans {
        var starts: [Int] = []
        var offsets: [Int] = [0]
        var weights: [Float] = []

        init(from source: Int, to target: Int) {
            let scale = Double(source) / Double(target)
            for j in 0..<target {
                let low = Double(j) * scale
                let high = Double(j + 1) * scale
                let first = min(source - 1, Int(low.rounded(.down)))
                let last = max(first, min(source - 1, Int(high.rounded(.up)) - 1))
                starts.append(first)
                for i in first...last {
                    let covered = min(high, Double(i + 1)) - max(low, Double(i))
                    weights.append(Float(max(0, covered) / scale))
                }
                offsets.append(weights.count)
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
        var across = [Float](repeating: 0, count: rowLength)
        var ring = [Float](repeating: 0, count: open * rowLength)
        samples.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { across in
                ring.withUnsafeMutableBufferPointer { ring in
                    columns.starts.withUnsafeBufferPointer { starts in
                        columns.offsets.withUnsafeBufferPointer { offsets in
                            columns.weights.withUnsafeBufferPointer { weights in
                                let columns = (starts: starts, offsets: offsets, weights: weights)
                                // Output rows lowest..<next have been started and not yet emitted.
                                var lowest = 0, next = 0
                                for sourceY in rows.starts[0]...rows.last(toHeight - 1) {
                                    sumAcross(source, from: sourceY * width * channels, channels: channels,
                                              columns: columns, into: across, load: load)
                                    while next < toHeight && rows.starts[next] <= sourceY {
                                        (ring.baseAddress! + (next % open) * rowLength).update(repeating: 0, count: rowLength)
                                        next += 1
                                    }
                                    for y in lowest..<next {
                                        let weight = rows.weights[rows.offsets[y] + sourceY - rows.starts[y]]
                                        let target = ring.baseAddress! + (y % open) * rowLength
                                        for i in 0..<rowLength {
                                            target[i] += weight * across[i]
                                        }
                                    }
                                    while lowest < next && rows.last(lowest) == sourceY {
                                        emit(lowest, UnsafeBufferPointer(start: ring.baseAddress! + (lowest % open) * rowLength,
                                                                         count: rowLength))
                                        lowest += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// One source row (from sample `sourceRow`) summed across: for each output column, its
    /// source samples times their weights, left to right, from 0.
    @inline(__always)
    private static func sumAcross<Sample>(
        _ source: UnsafeBufferPointer<Sample>, from sourceRow: Int, channels: Int,
        columns: (starts: UnsafeBufferPointer<Int>, offsets: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>),
        into out: UnsafeMutableBufferPointer<Float>, load: (Sample) -> Float
    ) {
        let (starts, offsets, weights) = columns
        switch channels {
        case 3:
            // The common case, unrolled: one pass over the span for all three channels.
            for x in 0..<starts.count {
                var at = sourceRow + starts[x] * 3
                var r: Float = 0, g: Float = 0, b: Float = 0
                for k in offsets[x]..<offsets[x + 1] {
                    let weight = weights[k]
                    r += weight * load(source[at])
                    g += weight * load(source[at + 1])
                    b += weight * load(source[at + 2])
                    at += 3
                }
                out[3 * x] = r
                out[3 * x + 1] = g
                out[3 * x + 2] = b
            }
        default:
            for x in 0..<starts.count {
                let base = sourceRow + starts[x] * channels
                for c in 0..<channels {
                    var sum: Float = 0
                    var at = base + c
                    for k in offsets[x]..<offsets[x + 1] {
                        sum += weights[k] * load(source[at])
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
