import Foundation
import Inference

extension Trainer.Result {
    /// The trained model as an `.aimodel`, its metadata saying how it was made.
    /// Nothing here depends on the clock or the machine, so the same run
    /// writes the same bytes.
    public func modelFile(name: String = "clothing", version: String = "1.0") -> ModelFile {
        let c = configuration
        func percent(_ x: Double) -> String { String(format: "%.4f", x) }
        var augmentation: [String] = []
        if c.augmentation.maxShift > 0 { augmentation.append("random shift up to \(c.augmentation.maxShift) px") }
        if c.augmentation.horizontalFlip { augmentation.append("horizontal flip") }
        let training: [String: String] = [
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
        return network.modelFile(name: name, version: version, labels: FashionMNIST.labels, training: training)
    }
}
