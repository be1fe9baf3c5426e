import CommandLineKit
import Wardrobe

/// `wardrobe classify FILE... | --sample`
struct ClassifyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "classify",
        abstract: "Classify image files and print the label and confidence of each.",
        alternatives: [.oneOf(["FILE..."], ["--sample"])],
        discussion: """
            Each result is also recorded in the catalogue (a run of its own) unless --no-save.
            --sample classifies the bundled Fashion-MNIST test image with the fashion-mnist prep
            and never writes to the catalogue.
            Exit status: 0 when every file was classified, 2 when some failed, 1 on failure.
            """)

    @Argument(name: "FILE...", help: "Image files (\(ReadableFormats.names), recognised by content).",
              transform: ArgumentValues.inputPath)
    var files: [String]
    @Flag(name: "--sample", help: "Classify the bundled sample image (Fixtures/fashion-sample.png).")
    var sample: Bool
    @Option(name: "--top", value: "K", help: "Also show the K most likely labels (default: 1).", in: 1...10)
    var top = 1
    @Option(name: "--prep", value: "RECIPE", help: "The prep recipe (default: the model's, else photo; fashion-mnist with --sample).",
            transform: ArgumentValues.recipe)
    var prep: String?
    @Flag(name: "--no-save", help: "Do not record the results in the catalogue.")
    var noSave: Bool
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var model: ModelOptions
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        guard sample != !files.isEmpty else {
            throw UsageError(sample ? "give FILE... or --sample, not both" : "missing FILE to classify")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        let paths = sample ? [try setup.samplePath()] : files
        let save = !noSave && !sample
        // Opened at its first use: for the model choice, and to keep the results.
        let catalogue = try setup.catalogue(explicit: self.catalogue.path, mode: save ? .create : .readOnly)
        let classifier = try catalogue.classifier(explicit: model.path)
        let recipe = try catalogue.recipe(named: prep ?? (sample ? BundledFiles.sampleRecipe : nil), for: classifier.model)
        let fileClassifier = FileClassifier(classifier: classifier, recipe: recipe)
        var failed = 0
        let results = try catalogue.classify(paths, with: fileClassifier, top: top, save: save) { failure in
            failed += 1
            console.error("\(failure.path): \(failure.reason)")
        }
        if output.json {
            try console.json(results, of: "the classifications")
        } else {
            for result in results {
                console.output("\(Format.escaped(result.path)): \(result.label) (\(Format.percent(result.confidence)))")
                for candidate in result.top.dropFirst() {
                    console.output("    \(candidate.label) \(Format.percent(candidate.probability))")
                }
            }
        }
        return failed == 0 ? .success : .partialFailure
    }
}
