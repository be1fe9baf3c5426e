import CommandLineKit

/// `wardrobe model`: train, evaluate and inspect classifier models.
struct ModelCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Train, evaluate and inspect the clothing classifier.",
        usage: "<subcommand> [options]",
        subcommands: [ModelTrainCommand.self, ModelEvaluateCommand.self, ModelInfoCommand.self])
}
