import Foundation

/// Calibration by one temperature: the logits divided by `T` before the
/// softmax. `T` is fitted to minimise the negative log-likelihood of held-out
/// examples (an accepted label's share of probability, as in training); the
/// labels do not change, only how sure the model says it is.
public enum TemperatureScaling {
    /// The spread of the prior on log T: a normal centred on T = 1 with this
    /// standard deviation. Without it a few held-out photos, all of them
    /// right, drive T towards its lower bound: fine-tuned on 40 corrections (4
    /// held out), a model got T = 0.121, and then 97% of the validation
    /// photos at confidence 0.8 or more, 82% of those right (ECE 0.180). With
    /// the 257 held-out photos of `make model` it makes no difference in the
    /// third decimal of T.
    public static let priorSpread = 0.5

    /// The temperature in 0.05...20 that minimises the sum over the examples of
    /// `-log(sum of softmax(logits / T) over the accepted labels)`, plus
    /// `(log T)^2 / (2 priorSpread^2)`: the most probable T given the examples
    /// and the prior. Golden-section search on log T (the loss is smooth and,
    /// in practice, has one minimum there).
    public static func fit(logits: [Float], examples: LabelledTensors) -> Float {
        precondition(!examples.isEmpty && logits.count % examples.count == 0, "one row of logits per example")
        func objective(_ logT: Double) -> Double {
            Double(examples.count) * loss(logits: logits, examples: examples, temperature: Float(exp(logT)))
                + logT * logT / (2 * priorSpread * priorSpread)
        }
        var low = log(0.05), high = log(20.0)
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = high - ratio * (high - low), b = low + ratio * (high - low)
        var fa = objective(a)
        var fb = objective(b)
        for _ in 0..<60 {
            if fa < fb {
                high = b; b = a; fb = fa
                a = high - ratio * (high - low)
                fa = objective(a)
            } else {
                low = a; a = b; fa = fb
                b = low + ratio * (high - low)
                fb = objective(b)
            }
        }
        return Float(exp((low + high) / 2))
    }

    /// Mean negative log-likelihood of the accepted labels at temperature `T`.
    public static func loss(logits: [Float], examples: LabelledTensors, temperature: Float) -> Double {
        let classes = logits.count / examples.count
        var total = 0.0
        for i in 0..<examples.count {
            let row = logits[i * classes..<(i + 1) * classes].map { Double($0 / temperature) }
            let top = row.max()!
            var sum = 0.0, accepted = 0.0
            for (k, z) in row.enumerated() {
                let e = Foundation.exp(z - top)
                sum += e
                if examples.isAccepted(k, at: i) { accepted += e }
            }
            total += Foundation.log(sum) - Foundation.log(accepted)
        }
        return total / Double(examples.count)
    }
}

/// How well confidence matches correctness on a labelled set: the expected
/// calibration error over equal-width bins, and how right the model is when
/// it is sure (confidence at or above a threshold) and how often it is.
public struct CalibrationReport: Sendable, Equatable, Codable {
    public var examples: Int
    /// `sum over bins of (bin size / examples) * |accuracy - mean confidence|`.
    public var expectedCalibrationError: Double
    public var bins: Int
    public var threshold: Double
    /// Share of examples with confidence >= threshold.
    public var confidentCoverage: Double
    /// Accuracy among those (nil when there are none).
    public var confidentPrecision: Double?

    /// JSON keys as every other document wardrobe prints has them (snake case).
    enum CodingKeys: String, CodingKey {
        case examples, bins, threshold
        case expectedCalibrationError = "expected_calibration_error"
        case confidentCoverage = "confident_coverage"
        case confidentPrecision = "confident_precision"
    }

    /// What a model file's calibration entries start with, before `summary`; both are of the
    /// same held-out photos, the temperature fitted on them (`ModelSummary.calibrationText`).
    public static let recorded = "held-out photos: "

    /// "ECE 0.0559 (15 bins); confidence >= 0.8 on 0.619 of them, 0.943 right", with
    /// "none that sure" where no example reached the threshold.
    public var summary: String {
        let right = confidentPrecision.map { String(format: "%.3f right", $0) } ?? "none that sure"
        return String(format: "ECE %.4f (%d bins); confidence >= %.1f on %.3f of them, ", expectedCalibrationError, bins,
                      threshold, confidentCoverage) + right
    }

    /// `confidences[i]` is the top softmax probability of example i, `correct[i]` whether its label was right.
    public init(confidences: [Double], correct: [Bool], bins: Int = 15, threshold: Double = 0.8) {
        precondition(confidences.count == correct.count && bins >= 1)
        var count = [Int](repeating: 0, count: bins)
        var right = [Int](repeating: 0, count: bins)
        var confidenceSum = [Double](repeating: 0, count: bins)
        var sure = 0, sureRight = 0
        for (p, ok) in zip(confidences, correct) {
            // Bins are (k/B, (k+1)/B]; a confidence of exactly 0 joins the first.
            let bin = min(max(Int((p * Double(bins)).rounded(.up)) - 1, 0), bins - 1)
            count[bin] += 1
            confidenceSum[bin] += p
            if ok { right[bin] += 1 }
            if p >= threshold {
                sure += 1
                if ok { sureRight += 1 }
            }
        }
        let n = Double(max(confidences.count, 1))
        var ece = 0.0
        for b in 0..<bins where count[b] > 0 {
            ece += Double(count[b]) / n * abs(Double(right[b]) / Double(count[b]) - confidenceSum[b] / Double(count[b]))
        }
        examples = confidences.count
        expectedCalibrationError = ece
        self.bins = bins
        self.threshold = threshold
        confidentCoverage = Double(sure) / n
        confidentPrecision = sure == 0 ? nil : Double(sureRight) / Double(sure)
    }
}
