import Foundation
import Inference

/// What a model file records beyond the trainer's own configuration: where
/// its photos came from, the prep recipe it was trained for, its parent when
/// fine-tuned, its calibration and how long training took. Every key is an
/// optional entry of the `training` metadata map (`TrainingMetadata`, with
/// the model file's format).
public struct TrainingRecord: Sendable, Equatable {
    /// Data besides Fashion-MNIST (photo folders, corrections).
    public var photoSources: [DataSource] = []
    /// The prep recipe ("name@version") the photos were prepared with; the
    /// default recipe of every command that prepares images for this model.
    public var recipe: String?
    /// How photos were varied before prep, when they were.
    public var photoViews: String?
    /// SHA-256 (hex) of the parent model's file, when fine-tuned.
    public var parentSHA256: String?
    /// The temperature folded into the last layer, when calibrated.
    public var temperature: Float?
    /// Calibration measured on the held-out photos, before and after.
    public var calibrationBefore: CalibrationReport?
    public var calibrationAfter: CalibrationReport?
    /// The rehearsal file the model rehearsed from (its parent's) or wrote
    /// beside itself: SHA-256 (hex) and the absolute path where it was.
    public var rehearsalSHA256: String?
    public var rehearsalPath: String?
    /// How a fine-tune kept what its parent knew, in words (`model info`).
    public var keeping: String?
    /// Wall-clock seconds of training (the one entry that differs between
    /// two runs of one configuration; the weights do not).
    public var trainingSeconds: Double?
    /// SHA-256 (lowercase hex) of every catalogue image whose person label
    /// the model learned from, and of every photo of `--photos` it learned
    /// from (an imported photo keeps its file's hash), its parent's
    /// included: what every figure
    /// about the model leaves out, since agreeing with an answer it was
    /// taught says nothing. Held-out images are not in it.
    public var learnedImages: Set<String> = []

    public init() {}

}

extension Trainer.Result {
    /// The trained model as an `.aimodel`, its metadata saying how it was made.
    public func modelFile(name: String = "clothing", version: String = "1.0",
                          record: TrainingRecord = TrainingRecord()) -> ModelFile {
        let c = configuration
        func percent(_ x: Double) -> String { String(format: "%.4f", x) }
        var augmentation: [String] = []
        if c.augmentation.maxShift > 0 { augmentation.append("random shift up to \(c.augmentation.maxShift) px") }
        if c.augmentation.horizontalFlip { augmentation.append("horizontal flip") }
        var training: [String: String] = [
            "architecture": architecture.summary,
            "parameters": String(network.parameterCount),
            "training_data": "Fashion-MNIST train, \(trainingImages) images (\(validationImages) more held out for validation), Debian package dataset-fashion-mnist",
            "test_data": "Fashion-MNIST test, \(testImages) images",
            "epochs": String(c.epochs),
            "seed": String(c.seed),
            "batch_size": String(c.batchSize),
            "threads": String(c.threads),
            "optimizer": "SGD, Nesterov momentum \(c.momentum), weight decay \(c.weightDecay)",
            "schedule": "one-cycle: warm-up \(c.warmupFraction) of steps to \(c.peakLearningRate), cosine to 0",
            "label_smoothing": String(c.labelSmoothing),
            "augmentation": augmentation.isEmpty ? "none" : augmentation.joined(separator: ", "),
            "validation_accuracy": percent(validationAccuracy),
            "test_accuracy": percent(testAccuracy),
            "trainer": "wardrobe Training module",
        ]
        if trainingPhotos > 0 {
            var sources = [DataSource(name: "Fashion-MNIST train", examples: trainingImages, perLabel: [:])]
            sources += record.photoSources
            training[TrainingMetadata.Key.dataSources] = DataSource.metadata(sources)
            training["photo_share"] = String(c.photoShare)
            training["photo_augmentation"] = c.photoAugmentation.summary
            // A fine-tune calibrates on its parent's rehearsal's held-out photos too: of one that
            // held none of the person's out, this said '0 held out ... for validation and calibration'
            // beside a calibration on 257.
            let calibrated = record.calibrationBefore?.examples
            training["photo_examples"] = "\(trainingPhotos) training photo tensors, \(heldOutPhotos) held out (by file hash) for validation"
                + (calibrated.map { $0 == heldOutPhotos ? " and calibration" : "; calibrated on \($0) held-out photos, the parent's rehearsal's among them" } ?? "")
        }
        if let accuracy = photoValidationAccuracy { training["photo_validation_accuracy"] = percent(accuracy) }
        if let recipe = record.recipe { training[TrainingMetadata.Key.recipe] = recipe }
        if let views = record.photoViews { training[TrainingMetadata.Key.photoViews] = views }
        if let parent = record.parentSHA256 { training[TrainingMetadata.Key.parentSHA256] = parent }
        if let sha = record.rehearsalSHA256 { training[TrainingMetadata.Key.rehearsalSHA256] = sha }
        if let path = record.rehearsalPath { training[TrainingMetadata.Key.rehearsalPath] = path }
        if let keeping = record.keeping { training[TrainingMetadata.Key.keeping] = keeping }
        if let t = record.temperature { training[TrainingMetadata.Key.temperature] = String(format: "%.4f", t) }
        for (key, report) in [(TrainingMetadata.Key.calibrationBefore, record.calibrationBefore),
                              (TrainingMetadata.Key.calibrationAfter, record.calibrationAfter)] {
            guard let report else { continue }
            training[key] = CalibrationReport.recorded + report.summary
        }
        if let seconds = record.trainingSeconds { training[TrainingMetadata.Key.trainingSeconds] = String(format: "%.0f", seconds) }
        var file = network.modelFile(name: name, version: version, labels: FashionMNIST.labels, training: training)
        // In the data section, not the header: a fine-tune on 200,000 labels is 6.4 MB of digests
        // there, where their hex made a header of 14.6 MB that no command would load.
        file.learnedImageDigests = TrainingMetadata.digests(ofLearnedImages: record.learnedImages)
        return file
    }
}
