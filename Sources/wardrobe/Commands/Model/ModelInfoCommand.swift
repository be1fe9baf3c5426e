import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model info`: what a model file says about itself.
struct ModelInfoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "info",
        abstract: "Show a model's name, version, size, labels, contract and training record.",
        discussion: """
            FILE and --model are the same; without either, the model every command would use:
            $WARDROBE_MODEL, else the catalogue's (see 'model use'), else the bundled one.
            """)

    @Argument(name: "FILE", help: "The .aimodel file (the same as --model FILE).", transform: ArgumentValues.modelPath)
    var path: String?
    @OptionGroup var model: ModelOptions
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        if path != nil && model.path != nil { throw UsageError("give the model as FILE or as --model FILE, not both") }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let (choice, summary) = try console.setup.catalogue(explicit: catalogue.path, mode: .readOnly)
            .modelSummary(explicit: path ?? model.path)
        let recordedAccuracy = summary.training["test_accuracy"]
        if let recordedAccuracy, summary.testAccuracy == nil {
            console.warning("model \(choice.path): the test accuracy it records, '\(recordedAccuracy)', is not a number")
        }
        if output.json {
            try console.json(summary, of: "the model's summary")
            return .success
        }
        /// A tensor as `image float32 [N, 1, 28, 28]`.
        func signature(name: String, shape: [Int]) -> String {
            "\(name) float32 [" + shape.map { $0 < 0 ? "N" : String($0) }.joined(separator: ", ") + "]"
        }
        let chosenBy = choice.source == .option ? "" : " (\(choice.source.rawValue))"
        // Each fact a row, its text filled to a terminal's width after the names (a model's
        // layers and its training record ran past the edge and broke mid-word).
        let accuracy: String = summary.testAccuracy.map { String(format: "%.4f", $0) }
            ?? recordedAccuracy.map { "'\($0)', not a number" } ?? "not recorded"
        let facts: [[String]] = [
            ["file", "\(choice.path)\(chosenBy)"],
            ["name", summary.name],
            ["version", summary.version],
            ["parameters", Format.count(summary.parameters)],
            ["input", summary.inputs.map { signature(name: $0.name, shape: $0.shape) }.joined(separator: ", ")],
            ["output", summary.outputs.map { signature(name: $0.name, shape: $0.shape) }.joined(separator: ", ")],
            ["labels", summary.labels.enumerated().map { "\($0) \($1)" }.joined(separator: ", ")],
            ["layers", "\(summary.layers.count): " + summary.layers.joined(separator: " ")],
            ["test accuracy", accuracy],
        ]
        console.outputLines(Format.table(facts, width: console.terminalColumns, filling: true))
        if !summary.training.isEmpty {
            console.output("training")
            // Keys line up after the longest (they were cut to 20 characters: `photo_validation_acc`).
            // The calibration's say what each figure measures and on what (--json keeps the file's words).
            let rows = summary.training.keys.sorted().filter { $0 != "test_accuracy" }.map { key in
                ["  " + key, summary.listsLearnedImages(key) ? Self.learnedImages(summary.learnedImageCount)
                    : summary.calibrationText(key) ?? summary.training[key]!]
            }
            console.outputLines(Format.table(rows, width: console.terminalColumns, filling: true))
        }
        return .success
    }

    /// The images a model learned from (catalogue images and photos of --photos) are a list of
    /// hashes: counted here, listed by --json.
    static func learnedImages(_ count: Int?) -> String {
        guard let count else { return "not a list of SHA-256 hashes" }
        return "\(count) images (their SHA-256 with --json), left out of its agreement figures"
    }
}
