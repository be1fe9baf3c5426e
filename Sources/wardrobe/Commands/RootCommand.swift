import Wardrobe

/// `wardrobe`: the root of the command tree. New subcommands are listed here.
struct RootCommand: Command {
    static let spec = CommandSpec(
        name: "wardrobe",
        abstract: "Keep a catalogue of clothing photos, classified by a Fashion-MNIST model.",
        usage: "<subcommand> [options]",
        discussion: """
            Exit status: 0 on success, 1 on failure, 2 when a command finished but some
            inputs failed (see each command), 64 for wrong usage.
            """,
        options: [.flag("--version", "Show the version.")],
        subcommands: [ImportCommand.self, ClassifyCommand.self, PrepCommand.self, ModelCommand.self])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.flag("--version") else {
            throw arguments.usageError(arguments.positionals.isEmpty
                ? "missing subcommand" : "unknown command '\(arguments.positionals[0])'")
        }
        self.arguments = arguments
    }

    func run(_ console: Console) throws -> ExitStatus {
        console.output("wardrobe \(WardrobeVersion.current)")
        return .success
    }
}
