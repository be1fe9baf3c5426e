import Foundation
import Training

/// `wardrobe model evaluate` on the 10,000 Fashion-MNIST test images, through
/// the same prepared `main` every other command classifies with. `--json`
/// prints exactly this (without the time taken).
public struct TestSetEvaluation: Encodable, Sendable {
    public struct ClassResult: Encodable, Sendable {
        public var label: String
        public var images: Int
        /// Nil for a class none of the images scored is of (`--limit`; null in JSON): it
        /// was 'accuracy 0.0000', as if each had been wrong.
        public var accuracy: Double?

        enum CodingKeys: String, CodingKey { case label, images, accuracy }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(images, forKey: .images)
            try container.encode(accuracy, forKey: .accuracy)
        }
    }

    /// Where Fashion-MNIST's .gz files are read from unless a directory is given.
    public static let defaultDataDirectory = FashionMNIST.defaultDirectory

    public var model: String
    public var name: String
    public var version: String
    /// The images scored: those the model gave finite logits.
    public var images: Int
    /// The images whose logits are not finite (a weight overflows float32 on them), from
    /// which no label follows: left out of every figure, and counted here.
    public var notFinite: Int
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
        case notFinite = "not_finite"
    }

    /// Classifies the first `limit` test images (all when nil) read from
    /// `dataDirectory` (the default when nil).
    public init(classifier: ClothingClassifier, dataDirectory: String?, limit: Int?) throws {
        let directory = dataDirectory ?? Self.defaultDataDirectory
        let test = try FashionMNIST(split: .test, directory: directory)
        // As for photos: 'accuracy 0.0000 (0 of 0)', status 0, scored nothing.
        guard test.count > 0 else {
            throw WardrobeError.invalidArgument("\(directory): its Fashion-MNIST test set holds no images, so there is nothing to measure")
        }
        let started = Date()
        // An image whose logits are not finite has no label: it was counted under the argmax of
        // NaN (a model overflowing on a quarter of the test set was 'accuracy 0.6743 (6743 of 10000)').
        var finite: [Bool] = []
        var predicted: [Int] = []
        let all = Evaluation.run(on: test, labels: ClothingClassifier.labels, limit: limit) { images, count in
            let classifications = classifier.classify(tensors: images, count: count)
            finite += classifications.map(\.isFinite)
            predicted += classifications.map(\.labelIndex)
            return classifications.map(\.labelIndex)
        }
        seconds = Date().timeIntervalSince(started)
        let scored = finite.indices.filter { finite[$0] }
        let actual = test.labels.prefix(finite.count).map(Int.init)
        let evaluation = scored.count == finite.count ? all : Evaluation(labels: all.labels, actual: scored.map { actual[$0] },
                                                                         predicted: scored.map { predicted[$0] })
        notFinite = finite.count - scored.count
        let identity = classifier.model
        model = identity.path
        name = identity.name
        version = identity.version
        images = evaluation.count
        correct = evaluation.correct
        accuracy = evaluation.accuracy
        classes = evaluation.labels.indices.map { c in
            let images = evaluation.confusion[c].reduce(0, +)
            return ClassResult(label: evaluation.labels[c], images: images, accuracy: images == 0 ? nil : evaluation.perClassAccuracy[c])
        }
        confusion = evaluation.confusion
        labels = evaluation.labels
    }
}
