/// Runs one command line: parse, dispatch, and turn every outcome into
/// output and an exit status.
enum CommandLineTool {
    static func run(_ words: [String], console: Console) -> Int32 {
        do {
            switch try ArgumentParser.parse(words, root: RootCommand.self) {
            case .help(let command, let path):
                console.output(HelpPrinter.help(for: command, commandPath: path), terminator: "")
                return ExitStatus.success.rawValue
            case .run(let type, let arguments):
                let command = try type.init(arguments)
                return try command.run(console).rawValue
            }
        } catch let error as UsageError {
            let command = resolve(error.commandPath)
            console.info("Error: \(error.message)")
            console.info("Usage: \(HelpPrinter.usageLine(for: command, commandPath: error.commandPath))")
            let path = (["wardrobe"] + error.commandPath).joined(separator: " ")
            console.info("  See '\(path) --help' for more information.")
            return ExitStatus.usage.rawValue
        } catch {
            console.error(String(describing: error))
            return ExitStatus.failure.rawValue
        }
    }

    /// The command type a path of subcommand names leads to.
    private static func resolve(_ path: [String]) -> any Command.Type {
        var command: any Command.Type = RootCommand.self
        for word in path {
            guard let sub = command.spec.subcommands.first(where: { $0.spec.name == word }) else { break }
            command = sub
        }
        return command
    }
}
