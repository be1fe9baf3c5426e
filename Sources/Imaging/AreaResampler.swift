/// Resizing by area averaging: every output pixel is the mean of the source area it covers,
/// partial source pixels weighted by the part covered. Separable: rows first, then columns.
/// When the size does not change the weights are exactly 1, so the image comes back unchanged.
struct AreaResampler {
    /// For one output index: the first source index and the weights of consecutive sources.
    private struct Span {
        var start: Int
        var weights: [Float]
    }

    private static func spans(from source: Int, to target: Int) -> [Span] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { j in
            let low = Double(j) * scale
            let high = Double(j + 1) * scale
            let first = Int(low.rounded(.down))
            let last = min(source - 1, Int(high.rounded(.up)) - 1)
            var weights = [Float]()
            for i in first...max(first, last) {
                let covered = min(high, Double(i + 1)) - max(low, Double(i))
                weights.append(Float(covered / scale))
            }
            return Span(start: first, weights: weights)
        }
    }

    /// Resizes interleaved float samples.
    static func resize(_ samples: [Float], width: Int, height: Int, channels: Int,
                       toWidth: Int, toHeight: Int) -> [Float] {
        precondition(samples.count == width * height * channels, "sample count does not match the size")
        precondition(toWidth > 0 && toHeight > 0, "a resized image has at least one pixel")
        let columns = spans(from: width, to: toWidth)
        let rows = spans(from: height, to: toHeight)
        var horizontal = [Float](repeating: 0, count: height * toWidth * channels)
        samples.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let sourceRow = y * width * channels
                    let outRow = y * toWidth * channels
                    for x in 0..<toWidth {
                        let span = columns[x]
                        for c in 0..<channels {
                            var sum: Float = 0
                            for (k, weight) in span.weights.enumerated() {
                                sum += weight * source[sourceRow + (span.start + k) * channels + c]
                            }
                            out[outRow + x * channels + c] = sum
                        }
                    }
                }
            }
        }
        var result = [Float](repeating: 0, count: toHeight * toWidth * channels)
        let rowLength = toWidth * channels
        horizontal.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { out in
                for y in 0..<toHeight {
                    let span = rows[y]
                    let outRow = y * rowLength
                    for (k, weight) in span.weights.enumerated() {
                        let sourceRow = (span.start + k) * rowLength
                        for i in 0..<rowLength {
                            out[outRow + i] += weight * source[sourceRow + i]
                        }
                    }
                }
            }
        }
        return result
    }
}

extension Bitmap {
    /// The image resized to exactly `width` x `height` by area averaging (aspect not kept).
    public func resized(width toWidth: Int, height toHeight: Int) -> Bitmap {
        if toWidth == width && toHeight == height { return self }
        let samples = pixels.map(Float.init)
        let resized = AreaResampler.resize(samples, width: width, height: height, channels: channels,
                                           toWidth: toWidth, toHeight: toHeight)
        let bytes = resized.map { UInt8(max(0, min(255, $0.rounded()))) }
        return Bitmap(width: toWidth, height: toHeight, channels: channels, pixels: bytes)
    }

    /// The image shrunk so its longest side is at most `longestSide`, aspect kept;
    /// an image already small enough is returned as it is (never enlarged).
    public func fitted(longestSide: Int) -> Bitmap {
        let size = Self.fittedSize(width: width, height: height, longestSide: longestSide)
        return resized(width: size.width, height: size.height)
    }

    static func fittedSize(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide else { return (width, height) }
        let scale = Double(longestSide) / Double(longest)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
