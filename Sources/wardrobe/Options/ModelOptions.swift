import CommandLineKit

/// `--model`, for every command that classifies.
struct ModelOptions: ParsableArguments {
    @Option(name: "--model", value: "FILE", help: "The model to use (default: the bundled clothing.aimodel).")
    var path: String?
}
