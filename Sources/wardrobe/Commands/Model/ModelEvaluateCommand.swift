import Foundation
import Training
import Wardrobe

/// `wardrobe model evaluate`: accuracy on the Fashion-MNIST test set, through
/// the same prepared `main` every other command classifies with.
struct ModelEvaluateCommand: Command {
    static let spec = CommandSpec(
        name: "evaluate",
        abstract: "Measure a model on the 10,000 Fashion-MNIST test images, or on labelled photos.",
        usage: "[--model FILE] [--data DIR | --images DIR --map FILE [--recipe NAME|all]] [--json]",
        discussion: """
            Prints the accuracy, the accuracy of each class and the 10x10 confusion matrix
            (rows: true label, columns: predicted label). The images reach the model as the
            contract says (byte / 255) through the one prepared function that `classify` uses.
            With --images, classifies a folder of labelled real photos instead (one subfolder
            per kind, --map saying which labels count as right for each) and prints the mapped
            accuracy, the accuracy of each folder and a folder-by-label confusion table, for
            one prep recipe or all; e.g. --images ../shared/data/clothing-photos/validation
            --map bench/clothing-photos.map (what `make eval-photos` runs).
            """,
        options: [
            .model,
            .value("--data", "DIR", "Fashion-MNIST's .gz files (default: \(FashionMNIST.defaultDirectory))."),
            .value("--limit", "N", "Evaluate only the first N test images."),
        ] + photoOptions + [.json])

    let model: String?
    let data: String
    let limit: Int?
    let json: Bool
    /// Set with --images: evaluate on labelled photos instead of the test set.
    let photos: PhotoOptions?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals()
        model = arguments.value("--model")
        data = arguments.value("--data") ?? FashionMNIST.defaultDirectory
        limit = try arguments.value("--limit", as: Int.self, in: 1...10_000)
        json = arguments.flag("--json")
        photos = try Self.photoOptions(arguments)
    }

    struct Report: Encodable {
        struct ClassResult: Encodable { var label: String; var images: Int; var accuracy: Double }
        var model: String
        var name: String
        var version: String
        var images: Int
        var correct: Int
        var accuracy: Double
        var classes: [ClassResult]
        /// Rows: true label; columns: predicted label; both in label order.
        var confusion: [[Int]]
        var labels: [String]
    }

    func run(_ console: Console) throws -> ExitStatus {
        if let photos { return try runPhotos(photos, console: console) }
        let classifier = try console.setup.classifier(explicit: model)
        let test = try FashionMNIST(split: .test, directory: data)
        let started = Date()
        let evaluation = Evaluation.run(on: test, labels: ClothingClassifier.labels, limit: limit) { images, count in
            classifier.classify(tensors: images, count: count).map(\.labelIndex)
        }
        let seconds = Date().timeIntervalSince(started)
        let identity = classifier.model
        if json {
            let classes = evaluation.labels.indices.map { c in
                Report.ClassResult(label: evaluation.labels[c], images: evaluation.confusion[c].reduce(0, +),
                                   accuracy: evaluation.perClassAccuracy[c])
            }
            try console.json(Report(model: identity.path, name: identity.name, version: identity.version,
                                    images: evaluation.count, correct: evaluation.correct, accuracy: evaluation.accuracy,
                                    classes: classes, confusion: evaluation.confusion, labels: evaluation.labels))
            return .success
        }
        console.info(String(format: "%d images in %.1f s (%.0f images/s)", evaluation.count, seconds,
                            Double(evaluation.count) / max(seconds, 1e-9)))
        console.output("model     \(identity.name) \(identity.version) (\(identity.path))")
        console.output("images    \(evaluation.count) Fashion-MNIST test images")
        console.output(String(format: "accuracy  %.4f (%d of %d)", evaluation.accuracy, evaluation.correct, evaluation.count))
        console.output("")
        console.output("class         images  accuracy")
        for (c, label) in evaluation.labels.enumerated() {
            console.output(label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "  %6d  %.4f", evaluation.confusion[c].reduce(0, +), evaluation.perClassAccuracy[c]))
        }
        console.output("")
        console.output("confusion matrix (rows: true label, columns: predicted label)")
        let short = evaluation.labels.map { String($0.prefix(5)) }
        console.output(String(repeating: " ", count: 12) + short.map { $0.leftPadded(6) }.joined())
        for (c, label) in evaluation.labels.enumerated() {
            console.output(label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + evaluation.confusion[c].map { String($0).leftPadded(6) }.joined())
        }
        return .success
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
