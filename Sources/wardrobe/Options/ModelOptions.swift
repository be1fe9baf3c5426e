import CommandLineKit

/// `--model`, for every command that classifies.
struct ModelOptions: ParsableArguments {
    @Option(name: "--model", value: "FILE", help: "The model to use (default: $WARDROBE_MODEL, else the catalogue's, see 'model use', else the bundled clothing.aimodel).",
            transform: ArgumentValues.modelPath)
    var path: String?
}
