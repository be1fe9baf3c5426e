/// Everything that decides a training run besides the architecture and the
/// data. Two runs with equal configurations on one machine write models with
/// byte-identical weights.
public struct TrainingConfiguration: Sendable, Equatable {
    public var epochs = 15
    public var batchSize = 128
    public var seed: UInt64 = 1
    public var peakLearningRate: Float = 0.05
    /// The share of all steps spent warming the learning rate up.
    public var warmupFraction: Double = 0.1
    public var momentum: Float = 0.9
    public var weightDecay: Float = 5e-4
    public var labelSmoothing: Float = 0
    public var augmentation = Augmentation()
    /// Training images held out for validation (chosen by a fixed
    /// permutation, the same for every seed, so runs are comparable).
    public var validationCount = 5_000
    /// Use only this many of the remaining training images (for quick runs and tests).
    public var trainingLimit: Int? = nil
    /// Evaluate on only this many test images (for quick runs and tests).
    public var testLimit: Int? = nil
    /// Threads, each running a share of every batch; the gradients are summed
    /// in a fixed order, so the result does not depend on timing. Part of the
    /// configuration because it changes batch-norm statistics (each thread
    /// normalises its own share).
    public var threads = 2
    /// With photos: the share of each epoch's examples that are photos (the
    /// rest Fashion-MNIST). The photos are drawn in turn from a shuffled
    /// list, so each is seen about equally often, however few there are.
    public var photoShare = 0.25
    public var photoAugmentation = PhotoAugmentation()
    /// With soft targets: the share of each epoch's examples that are soft
    /// targets (drawn in turn from a shuffled list, as photos are). Photos,
    /// soft targets and Fashion-MNIST share each epoch; the shares of the
    /// first two add up to less than 1.
    public var softTargetShare = 0.0
    /// The temperature soft targets are softened with, and the network's
    /// logits divided by, in their loss (Hinton et al. use 2 to 20; 2 keeps
    /// most of a confident parent's answer while showing its second choices).
    public var distillationTemperature: Float = 2
    /// Fine-tuning: every batch norm keeps the parent's running statistics,
    /// scale and shift, and normalises as at inference while the other
    /// layers learn (batches of a fine-tune's mix are not the data the
    /// statistics describe).
    public var fixedNormalization = false

    public init() {}

    /// A schedule for fine-tuning a trained model: few epochs, a small peak
    /// rate reached quickly, cosine decay. A fresh network's warm-up and
    /// large rate would undo what the parent learned. An epoch is 8,000
    /// Fashion-MNIST images and, with photos, 12,000 photo draws: 20,000
    /// examples. The peak rate is half what it was: on bench-learning's
    /// reviews 0.01 moved more labels nobody corrected. Photos are 60% of an
    /// epoch, not 40% (12,000 Fashion-MNIST images): a fine-tune on a
    /// person's corrections rehearses its parent's photos among them, and with
    /// more of those the six reviews got 11 more validation photos right
    /// and broke 28 fewer labels nobody reviewed
    /// (docs/learning-from-corrections.md).
    public static func fineTuning() -> TrainingConfiguration {
        var c = TrainingConfiguration()
        c.epochs = 4
        c.peakLearningRate = 0.005
        c.warmupFraction = 0.05
        c.trainingLimit = 8_000
        c.photoShare = 0.6
        return c
    }
}
