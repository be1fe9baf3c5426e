import Wardrobe

/// `wardrobe classify FILE... | --sample`
struct ClassifyCommand: Command {
    static let spec = CommandSpec(
        name: "classify",
        abstract: "Classify image files and print the label and confidence of each.",
        usage: "[options] (FILE... | --sample)",
        discussion: """
            Each result is also recorded in the catalogue (a run of its own) unless --no-save.
            --sample classifies the bundled Fashion-MNIST test image with the fashion-mnist prep.
            Exit status: 0 when every file was classified, 2 when some failed, 1 on failure.
            """,
        arguments: [("FILE...", "Image files (JPEG or PNG, recognised by content).")],
        options: [
            .flag("--sample", "Classify the bundled sample image (Fixtures/fashion-sample.png)."),
            .value("--top", "K", "Also show the K most likely labels (default: 1)."),
            .value("--prep", "RECIPE", "The prep recipe (default: photo; fashion-mnist with --sample)."),
            .flag("--no-save", "Do not record the results in the catalogue."),
            .database, .model, .json,
        ])

    var files: [String]
    var sample: Bool
    var top: Int
    var prep: String?
    var save: Bool
    var database: String?
    var model: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.positionals
        sample = arguments.flag("--sample")
        guard sample != !files.isEmpty else {
            throw arguments.usageError(sample ? "give FILE... or --sample, not both" : "missing FILE to classify")
        }
        top = try arguments.value("--top", as: Int.self, in: 1...10) ?? 1
        prep = arguments.value("--prep") ?? (sample ? "fashion-mnist" : nil)
        save = !arguments.flag("--no-save")
        database = arguments.value("--db")
        model = arguments.value("--model")
        json = arguments.flag("--json")
    }

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        let paths = sample ? [try setup.samplePath()] : files
        let classifier = try setup.classifier(explicit: model)
        let catalogue = save ? try setup.openCatalogue(explicit: database) : nil
        let fileClassifier = FileClassifier(classifier: classifier, recipe: try setup.recipe(named: prep, for: classifier.model))
        var failed = 0
        let results = try fileClassifier.classify(paths, top: top, saveTo: catalogue) { failure in
            failed += 1
            console.error("\(failure.path): \(failure.reason)")
        }
        if json {
            try console.json(results)
        } else {
            for result in results {
                console.output("\(result.path): \(result.label) (\(Format.percent(result.confidence)))")
                for candidate in result.top.dropFirst() {
                    console.output("    \(candidate.label) \(Format.percent(candidate.probability))")
                }
            }
        }
        return failed == 0 ? .success : .partialFailure
    }
}
