/// What the trainer reports while it runs; the command line prints it.
public enum TrainingProgress: Sendable {
    /// Before the first step: the plan of the run. `validationImages` are Fashion-MNIST's
    /// alone; the held-out photos checked beside them are counted apart.
    case started(architecture: String, parameters: Int, trainingImages: Int, validationImages: Int,
                 heldOutPhotos: Int, steps: Int)
    /// Every few steps inside an epoch.
    case step(StepReport)
    case epoch(EpochReport)
    /// After training: accuracy on the test set.
    case finished(testAccuracy: Double, seconds: Double)
}

public struct StepReport: Sendable {
    public var epoch: Int
    public var step: Int
    public var stepsPerEpoch: Int
    /// Mean training loss so far in this epoch.
    public var loss: Double
    /// Examples per second so far in this epoch.
    public var imagesPerSecond: Double
    /// Time left in this epoch at that rate.
    public var secondsLeft: Double
}

public struct EpochReport: Sendable {
    public var epoch: Int
    public var epochs: Int
    /// Mean training loss over the epoch's batches.
    public var loss: Double
    /// Accuracy on the epoch's augmented training batches, in training mode.
    public var trainingAccuracy: Double
    /// On the held-out Fashion-MNIST training images.
    public var validationAccuracy: Double
    /// On the held-out training photos (an accepted label counts as right); nil without photos.
    public var photoValidationAccuracy: Double?
    public var imagesPerSecond: Double
    public var learningRate: Float
    public var secondsElapsed: Double
    public var secondsLeft: Double
}
