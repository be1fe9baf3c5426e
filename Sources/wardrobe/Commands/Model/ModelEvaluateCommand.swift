import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model evaluate`: accuracy on the Fashion-MNIST test set, through
/// the same prepared `main` every other command classifies with.
struct ModelEvaluateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "evaluate",
        abstract: "Measure a model on the 10,000 Fashion-MNIST test images, or on labelled photos.",
        alternatives: [.atMostOneOf(["--data"], ["--images", "--map"])],
        discussion: """
            Prints the accuracy, the accuracy of each class and the 10x10 confusion matrix
            (rows: true label, columns: predicted label). The images reach the model as the
            contract says (byte / 255) through the one prepared function that `classify` uses.
            With --images, classifies a folder of labelled real photos instead (one subfolder
            per kind, --map saying which labels count as right for each) and prints the mapped
            accuracy, the accuracy of each folder and a folder-by-label confusion table, for
            one prep recipe or all; e.g. --images ../shared/data/clothing-photos/validation
            --map bench/clothing-photos.map (what `make eval-photos` runs).
            """)

    @OptionGroup var model: ModelOptions
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--data", value: "DIR",
            help: "Fashion-MNIST's .gz files (default: \(TestSetEvaluation.defaultDataDirectory)).",
            transform: ArgumentValues.inputPath)
    var data: String?
    @Option(name: "--limit", value: "N", help: "Evaluate only the first N test images.", in: 1...10_000)
    var limit: Int?
    /// Set: evaluate on labelled photos instead of the test set.
    @Option(name: "--images", value: "DIR",
            help: "Evaluate on labelled photos instead: one subfolder per kind (see --map).",
            transform: ArgumentValues.inputPath)
    var images: String?
    @Option(name: "--map", value: "FILE",
            help: "With --images: 'folder: Label, Label' per line, 'folder: none' to exclude.",
            transform: ArgumentValues.inputPath)
    var map: String?
    @Option(name: "--recipe", value: "NAME",
            help: "With --images: the prep recipe, or 'all' to compare every recipe (default: the model's, else \(PrepPreview.defaultRecipeName)).",
            transform: ArgumentValues.recipeOrAll)
    var recipe: String?
    @Flag(name: "--uncalibrated", help: "With --images: confidence as before calibration (logits times the model's temperature).")
    var uncalibrated: Bool
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        guard images != nil else {
            if map != nil { throw UsageError("--map needs --images") }
            if recipe != nil { throw UsageError("--recipe needs --images") }
            if uncalibrated { throw UsageError("--uncalibrated needs --images") }
            return
        }
        guard map != nil else { throw UsageError("--images needs --map FILE") }
        if data != nil { throw UsageError("--data is for the Fashion-MNIST test set, not with --images") }
        if limit != nil { throw UsageError("--limit is for the Fashion-MNIST test set, not with --images") }
    }

    func run(_ console: Console) throws -> ExitStatus {
        if let images, let map { return try runPhotos(images: images, map: map, console: console) }
        let classifier = try console.setup.catalogue(explicit: catalogue.path, mode: .readOnly)
            .classifier(explicit: model.path)
        let report = try TestSetEvaluation(classifier: classifier, dataDirectory: data, limit: limit)
        if output.json {
            try console.json(report, of: "the evaluation")
            return .success
        }
        let classified = report.images + report.notFinite
        console.info(String(format: "%d image%@ in %.1f s (%.0f images/s)", classified, classified == 1 ? "" : "s", report.seconds,
                            Double(classified) / max(report.seconds, 1e-9)))
        console.output("model     \(report.name) \(report.version) (\(report.model))")
        console.output("images    \(report.images) Fashion-MNIST test image\(report.images == 1 ? "" : "s")")
        console.output(String(format: "accuracy  %.4f (%d of %d)", report.accuracy, report.correct, report.images))
        if report.notFinite > 0 {
            console.output("not scored \(report.notFinite) images: the model's output for them is not a finite number "
                           + "(a weight overflows float32 on them)")
        }
        console.output("")
        console.output("class         images  accuracy")
        for result in report.classes {
            console.output(result.label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "  %6d  ", result.images) + (result.accuracy.map { String(format: "%.4f", $0) } ?? "     -"))
        }
        console.output("")
        console.output("confusion matrix (rows: true label, columns: predicted label)")
        let short = report.labels.map { String($0.prefix(5)) }
        console.output(String(repeating: " ", count: 12) + short.map { $0.leftPadded(6) }.joined())
        for (c, label) in report.labels.enumerated() {
            console.output(label.padding(toLength: 12, withPad: " ", startingAt: 0)
                + report.confusion[c].map { String($0).leftPadded(6) }.joined())
        }
        return .success
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
