import Foundation

/// Softmax cross-entropy over flat logits `[N, K]`, with optional label
/// smoothing (the target puts `1 - s + s/K` on the label and `s/K` elsewhere).
enum SoftmaxCrossEntropy {
    struct Result { var lossSum: Double; var correct: Int }

    /// Writes `dlogits = scale * (softmax - target)`; `scale` is one over the
    /// whole batch, so workers' gradients add up to the batch mean.
    static func forwardBackward(_ logits: UnsafePointer<Float>, labels: UnsafePointer<Int32>, batch: Int, classes: Int,
                                smoothing: Float, scale: Float, dLogits: UnsafeMutablePointer<Float>) -> Result {
        var lossSum = 0.0
        var correct = 0
        let off = smoothing / Float(classes)
        let on = 1 - smoothing + off
        for b in 0..<batch {
            let row = logits + b * classes
            let drow = dLogits + b * classes
            var best = 0
            for k in 1..<classes where row[k] > row[best] { best = k }
            let label = Int(labels[b])
            if best == label { correct += 1 }
            let top = row[best]
            var sum: Float = 0
            for k in 0..<classes { sum += exp(row[k] - top) }
            let logSum = log(sum)
            var loss: Float = 0
            for k in 0..<classes {
                let logProbability = row[k] - top - logSum
                let target = k == label ? on : off
                loss -= target * logProbability
                drow[k] = scale * (exp(logProbability) - target)
            }
            lossSum += Double(loss)
        }
        return Result(lossSum: lossSum, correct: correct)
    }
}
