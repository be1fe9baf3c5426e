import Foundation
import Training

/// `wardrobe model train`: the bundled architecture trained on Fashion-MNIST
/// and written as an .aimodel. Holds the rules that turn the command's
/// numbers into a training configuration.
public struct ModelTraining: Sendable {
    /// What the trainer reports as it goes.
    public typealias Event = TrainingProgress
    public typealias Configuration = TrainingConfiguration

    public static let defaultDataDirectory = FashionMNIST.defaultDirectory
    public static let defaultEpochs = TrainingConfiguration().epochs

    public var dataDirectory: String
    public var configuration: TrainingConfiguration

    /// Nil keeps the default. A `limit` makes a quick trial: it caps the
    /// training images, the validation and test images at as many, and the
    /// batch at the images there are (but at least one per default thread).
    /// `threads` is applied after those rules.
    public init(dataDirectory: String?, epochs: Int?, seed: UInt64?, limit: Int?, threads: Int?) {
        var configuration = TrainingConfiguration()
        if let epochs { configuration.epochs = epochs }
        if let seed { configuration.seed = seed }
        if let limit {
            configuration.trainingLimit = limit
            configuration.validationCount = min(configuration.validationCount, limit)
            configuration.testLimit = limit
            configuration.batchSize = min(configuration.batchSize, max(limit, configuration.threads))
        }
        if let threads { configuration.threads = threads }
        self.dataDirectory = dataDirectory ?? Self.defaultDataDirectory
        self.configuration = configuration
    }

    /// What a finished training wrote.
    public struct Outcome: Sendable {
        public var parameters: Int
        public var testAccuracy: Double
    }

    /// Trains, reporting each event to `progress`, and writes the model to `output`.
    public func run(writingTo output: URL, progress: (Event) -> Void) throws -> Outcome {
        let training = try FashionMNIST(split: .train, directory: dataDirectory)
        let test = try FashionMNIST(split: .test, directory: dataDirectory)
        let result = Trainer(configuration: configuration).train(training: training, test: test, progress: progress)
        try result.modelFile().write(to: output)
        return Outcome(parameters: result.network.parameterCount, testAccuracy: result.testAccuracy)
    }
}
