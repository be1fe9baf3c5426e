/// Resizing by area averaging: every output pixel is the mean of the source area it covers,
/// partial source pixels weighted by the part covered. Separable: rows first, then columns.
/// When the size does not change the weights are exactly 1, so the image comes back unchanged.
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
    }

    /// Resizes interleaved samples; `load` turns a source sample into a float.
    static func resize<Sample>(_ samples: [Sample], width: Int, height: Int, channels: Int,
                               toWidth: Int, toHeight: Int, load: (Sample) -> Float) -> [Float] {
        precondition(samples.count == width * height * channels, "sample count does not match the size")
        precondition(toWidth > 0 && toHeight > 0, "a resized image has at least one pixel")
        let columns = Spans(from: width, to: toWidth)
        let rows = Spans(from: height, to: toHeight)
        let rowLength = toWidth * channels
        // Every sample of both passes' buffers is written (the second accumulates, so it starts at 0).
        let horizontal = samples.withUnsafeBufferPointer { source in
            [Float](overwriting: height * rowLength) { out in
                columns.starts.withUnsafeBufferPointer { starts in
                    columns.offsets.withUnsafeBufferPointer { offsets in
                        columns.weights.withUnsafeBufferPointer { weights in
                            for y in 0..<height {
                                let sourceRow = y * width * channels
                                let outRow = y * rowLength
                                switch channels {
                                case 3:
                                    // The common case, unrolled: one pass over the span for all three channels.
                                    for x in 0..<toWidth {
                                        var at = sourceRow + starts[x] * 3
                                        var r: Float = 0, g: Float = 0, b: Float = 0
                                        for k in offsets[x]..<offsets[x + 1] {
                                            let weight = weights[k]
                                            r += weight * load(source[at])
                                            g += weight * load(source[at + 1])
                                            b += weight * load(source[at + 2])
                                            at += 3
                                        }
                                        out[outRow + 3 * x] = r
                                        out[outRow + 3 * x + 1] = g
                                        out[outRow + 3 * x + 2] = b
                                    }
                                default:
                                    for x in 0..<toWidth {
                                        let base = sourceRow + starts[x] * channels
                                        for c in 0..<channels {
                                            var sum: Float = 0
                                            var at = base + c
                                            for k in offsets[x]..<offsets[x + 1] {
                                                sum += weights[k] * load(source[at])
                                                at += channels
                                            }
                                            out[outRow + x * channels + c] = sum
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var result = [Float](repeating: 0, count: toHeight * rowLength)
        horizontal.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { out in
                for y in 0..<toHeight {
                    let outRow = y * rowLength
                    var sourceRow = rows.starts[y] * rowLength
                    for k in rows.offsets[y]..<rows.offsets[y + 1] {
                        let weight = rows.weights[k]
                        let target = out.baseAddress! + outRow
                        let from = source.baseAddress! + sourceRow
                        for i in 0..<rowLength {
                            target[i] += weight * from[i]
                        }
                        sourceRow += rowLength
                    }
                }
            }
        }
        return result
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
        let resized = AreaResampler.resize(pixels, width: width, height: height, channels: channels,
                                           toWidth: toWidth, toHeight: toHeight) { Float($0) }
        // Values are never negative: adding a half and truncating rounds, without a libm call.
        let bytes = resized.withUnsafeBufferPointer { values in
            [UInt8](overwriting: values.count) { out in
                for i in 0..<values.count { out[i] = UInt8(min(255, max(0, values[i]) + 0.5)) }
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
