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
///
/// An example whose mask is 0 has a soft target instead: another model's
/// probabilities (knowledge distillation, Hinton et al. 2015). Its loss is
/// `T^2 * KL(q || softmax(z / T))` at the distillation temperature `T`, so
/// it is 0 when the network agrees with the target, and its gradient
/// `T * (softmax(z / T) - q)` keeps the size of a hard example's whatever
/// `T` is. Label smoothing does not apply to it (the target is soft already).
enum SoftmaxCrossEntropy {
    struct Result { var lossSum: Double; var correct: Int }

    /// Writes `dlogits = scale * dloss/dlogits`; `scale` is one over the whole
    /// batch, so workers' gradients add up to the batch mean. The gradient is
    /// `p_k - (1 - s) * q_k - s/K`, where `q` is `p` restricted to the
    /// accepted labels and renormalised. A prediction counts as correct when
    /// its argmax is accepted.
    /// `softTargets` (`[batch, classes]`, read only in rows whose mask is 0)
    /// may be nil when every example has a mask.
    static func forwardBackward(_ logits: UnsafePointer<Float>, accepted: UnsafePointer<UInt64>,
                                softTargets: UnsafePointer<Float>? = nil, temperature: Float = 1, batch: Int,
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
            if mask == 0 {
                precondition(softTargets != nil, "an example accepts no label and has no soft target")
                let soft = distil(row, target: softTargets! + b * classes, temperature: temperature, classes: classes,
                                  scale: scale, dLogits: drow)
                lossSum += soft.loss
                if soft.agrees { correct += 1 }
                continue
            }
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

    /// One soft-target row: its loss, its gradient written to `dLogits`, and
    /// whether its argmax is the target's.
    private static func distil(_ row: UnsafePointer<Float>, target: UnsafePointer<Float>, temperature t: Float,
                               classes: Int, scale: Float, dLogits: UnsafeMutablePointer<Float>) -> (loss: Double, agrees: Bool) {
        var best = 0, targetBest = 0
        for k in 1..<classes {
            if row[k] > row[best] { best = k }
            if target[k] > target[targetBest] { targetBest = k }
        }
        let top = row[best] / t
        var sum: Float = 0
        for k in 0..<classes { sum += exp(row[k] / t - top) }
        let logSum = log(sum)
        var loss: Float = 0
        for k in 0..<classes {
            let logP = row[k] / t - top - logSum
            let q = target[k]
            if q > 0 { loss += q * (log(q) - logP) }
            dLogits[k] = scale * t * (exp(logP) - q)
        }
        return (Double(t * t * loss), best == targetBest)
    }

    /// The mask of one label.
    static func mask(label: Int) -> UInt64 { UInt64(1) << UInt64(label) }
}
