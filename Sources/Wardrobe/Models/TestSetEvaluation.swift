import Foundation
import Training

/// `wardrobe model evaluate` on the 10,000 Fashion-MNIST test images, through
/// the same prepared `main` every other command classifies with. `--json`
/// prints exactly this (without the time taken).
public struct TestSetEvaluation: Encodable, Sendable {
    public struct ClassResult: Encodable, Sendable {
        public var label: String
        public var images: Int
        public var accuracy: Double
    }

    /// Where Fashion-MNIST's .gz files are read from unless a directory is given.
    public static let defaultDataDirectory = FashionMNIST.defaultDirectory

    public var model: String
    public var name: String
    public var version: String
    public var images: Int
    public var correct: Int
    public var accuracy: Double
    public var classes: [ClassResult]
    /// Rows: true label; columns: predicted label; both in label order.
    public var confusion: [[Int]]
    public var labels: [String]
    /// Time spent classifying; not part of the JSON report.
    public var seconds: Double

    enum CodingKeys: String, CodingKey {
        case model, name, version, images, correct, accuracy, classes, confusion, labels
    }

    /// Classifies the first `limit` test images (all when nil) read from
    /// `dataDirectory` (the default when nil).
    public init(classifier: ClothingClassifier, dataDirectory: String?, limit: Int?) throws {
        let test = try FashionMNIST(split: .test, directory: dataDirectory ?? Self.defaultDataDirectory)
        let started = Date()
        let evaluation = Evaluation.run(on: test, labels: ClothingClassifier.labels, limit: limit) { images, count in
            classifier.classify(tensors: images, count: count).map(\.labelIndex)
        }
        seconds = Date().timeIntervalSince(started)
        let identity = classifier.model
        model = identity.path
        name = identity.name
        version = identity.version
        images = evaluation.count
        correct = evaluation.correct
        accuracy = evaluation.accuracy
        classes = evaluation.labels.indices.map { c in
            ClassResult(label: evaluation.labels[c], images: evaluation.confusion[c].reduce(0, +),
                        accuracy: evaluation.perClassAccuracy[c])
        }
        confusion = evaluation.confusion
        labels = evaluation.labels
    }
}
