import CommandLineKit

/// `wardrobe model`: train, evaluate and inspect classifier models.
struct ModelCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "model",
        abstract: "Train, evaluate, inspect and choose the clothing classifier.",
        subcommands: [ModelTrainCommand.self, ModelEvaluateCommand.self, ModelInfoCommand.self, ModelUseCommand.self,
                      ModelListCommand.self])
}
