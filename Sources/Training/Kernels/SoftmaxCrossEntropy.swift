import Foundation

/// Softmax cross-entropy over flat logits `[N, K]` where each example may
/// accept several labels (a bit mask: bit k set when label k is right), with
/// optional label smoothing.
///
/// The loss of one example is `(1 - s) * -log(sum of p_k over accepted k)
/// + s * mean over all k of -log p_k`. With one accepted label this is the
/// usual smoothed cross-entropy (target `1 - s + s/K` on the label, `s/K`
/// elsewhere). With several, the model is not told which of them to pick:
/// any share of probability among them costs nothing, so a photo of shoes
/// that may be a Sandal, a Sneaker or an Ankle boot leaves the model its own
/// distinction between the three.
enum SoftmaxCrossEntropy {
    struct Result { var lossSum: Double; var correct: Int }

    /// Writes `dlogits = scale * dloss/dlogits`; `scale` is one over the whole
    /// batch, so workers' gradients add up to the batch mean. The gradient is
    /// `p_k - (1 - s) * q_k - s/K`, where `q` is `p` restricted to the
    /// accepted labels and renormalised. A prediction counts as correct when
    /// its argmax is accepted.
    static func forwardBackward(_ logits: UnsafePointer<Float>, accepted: UnsafePointer<UInt64>, batch: Int,
                                classes: Int, smoothing: Float, scale: Float,
                                dLogits: UnsafeMutablePointer<Float>) -> Result {
        precondition(classes <= 64, "accepted labels are a 64-bit mask")
        var lossSum = 0.0
        var correct = 0
        let uniform = smoothing / Float(classes)
        for b in 0..<batch {
            let row = logits + b * classes
            let drow = dLogits + b * classes
            let mask = accepted[b]
            precondition(mask != 0, "an example accepts no label")
            var best = 0
            for k in 1..<classes where row[k] > row[best] { best = k }
            if mask & (1 << best) != 0 { correct += 1 }
            let top = row[best]
            // The accepted labels' sum is taken relative to their own largest logit, so it
            // cannot underflow to zero however unlikely the model thinks they are.
            var acceptedTop = -Float.infinity
            for k in 0..<classes where mask & (1 << k) != 0 { acceptedTop = max(acceptedTop, row[k]) }
            var sum: Float = 0
            var acceptedSum: Float = 0
            for k in 0..<classes {
                sum += exp(row[k] - top)
                if mask & (1 << k) != 0 { acceptedSum += exp(row[k] - acceptedTop) }
            }
            let logSum = log(sum)
            var loss = (1 - smoothing) * (logSum - (acceptedTop - top + log(acceptedSum)))
            for k in 0..<classes {
                let logProbability = row[k] - top - logSum
                let p = exp(logProbability)
                let q = mask & (1 << k) != 0 ? exp(row[k] - acceptedTop) / acceptedSum : 0
                loss -= uniform * logProbability
                drow[k] = scale * (p - (1 - smoothing) * q - uniform)
            }
            lossSum += Double(loss)
        }
        return Result(lossSum: lossSum, correct: correct)
    }

    /// The mask of one label.
    static func mask(label: Int) -> UInt64 { UInt64(1) << UInt64(label) }
}
