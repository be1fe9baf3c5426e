import Inference
import Training

extension ModelSummary {
    /// A calibration entry of the training record as `model info` shows it: what its figure
    /// measures, and on what, before the figures the file records. Both ECEs are of the same
    /// held-out photos, the second with the temperature fitted on those photos to lower their
    /// negative log-likelihood, which is not their ECE. Shown bare, the bundled model's
    /// 'calibration_before ... ECE 0.0260' and 'calibration_after ... ECE 0.0505' read as a
    /// calibration that made its confidence worse; its temperature is the least NLL of those
    /// photos (0.3984 at T = 1, 0.3940 at 1.147), and ECE over 15 bins of 257 photos jumps by
    /// hundredths with T alone (0.025 at 1.10). On photos neither learned from it is 0.065
    /// before and 0.064 after (docs/bundled-model.md). Nil for any other entry, and for one in
    /// other words than the trainer's.
    public func calibrationText(_ key: String) -> String? {
        guard let value = training[key] else { return nil }
        switch key {
        case TrainingMetadata.Key.temperature:
            return "\(value): the logits are divided by it; fitted on the held-out photos to lower their "
                + "negative log-likelihood, not their ECE"
        case TrainingMetadata.Key.calibrationBefore where value.hasPrefix(CalibrationReport.recorded):
            return "held-out photos, confidence as trained: " + value.dropFirst(CalibrationReport.recorded.count)
        case TrainingMetadata.Key.calibrationAfter where value.hasPrefix(CalibrationReport.recorded):
            return "the same held-out photos, with the temperature fitted on them: "
                + value.dropFirst(CalibrationReport.recorded.count)
        default:
            return nil
        }
    }
}
