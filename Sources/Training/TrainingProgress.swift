/// What the trainer reports while it runs; the command line prints it.
public enum TrainingProgress: Sendable {
    /// Before the first step: the plan of the run.
    case started(architecture: String, parameters: Int, trainingImages: Int, validationImages: Int, steps: Int)
    /// Every few steps inside an epoch.
    case step(epoch: Int, step: Int, stepsPerEpoch: Int, loss: Double)
    case epoch(EpochReport)
    /// After training: accuracy on the test set.
    case finished(testAccuracy: Double, seconds: Double)
}

public struct EpochReport: Sendable {
    public var epoch: Int
    public var epochs: Int
    /// Mean training loss over the epoch's batches.
    public var loss: Double
    /// Accuracy on the epoch's augmented training batches, in training mode.
    public var trainingAccuracy: Double
    public var validationAccuracy: Double
    public var imagesPerSecond: Double
    public var learningRate: Float
    public var secondsElapsed: Double
    public var secondsLeft: Double
}
