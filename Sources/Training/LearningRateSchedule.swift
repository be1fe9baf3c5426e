import Foundation

/// One-cycle learning rate: a linear warm-up from `peak / 20` to `peak` over
/// the first `warmupSteps`, then a cosine decay to zero at `totalSteps`.
/// Warm-up keeps the first steps of a freshly initialised network stable;
/// the long decay is where most of the accuracy is won.
public struct LearningRateSchedule: Sendable, Equatable {
    public var peak: Float
    public var totalSteps: Int
    public var warmupSteps: Int

    public init(peak: Float, totalSteps: Int, warmupSteps: Int) {
        precondition(totalSteps >= 1 && warmupSteps >= 0 && warmupSteps < totalSteps)
        self.peak = peak
        self.totalSteps = totalSteps
        self.warmupSteps = warmupSteps
    }

    public func rate(atStep step: Int) -> Float {
        if step < warmupSteps {
            let start = peak / 20
            return start + (peak - start) * Float(step) / Float(warmupSteps)
        }
        let progress = Double(step - warmupSteps) / Double(totalSteps - warmupSteps)
        return peak * Float(0.5 * (1 + cos(Double.pi * min(progress, 1))))
    }
}
