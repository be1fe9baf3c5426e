/// Runs one command line: parse, dispatch, and turn every outcome into
/// output and an exit status. Help goes to stdout; a usage error (`error: ...`,
/// as every error), the usage line and a pointer to help go to stderr with
/// status 64; any other error goes to stderr as `error: ...` with status 1.
public enum CommandLineTool {
    public static func run(_ words: [String], root: any Command.Type, console: Console) -> Int32 {
        do {
            switch try ArgumentParser.parse(words, root: root) {
            case .help(let command, let path):
                let width = console.terminalColumns ?? HelpPrinter.defaultWidth
                console.outputLines(HelpPrinter.help(for: command, commandPath: path, root: root, width: width), terminator: "")
                return console.outputFailure.map { report($0, console: console) } ?? ExitStatus.success.rawValue
            case .run(let command, _):
                let status = try command.run(console).rawValue
                return console.outputFailure.map { report($0, console: console) } ?? status
            }
        } catch let failure as OutputFailure {
            return report(failure, console: console)
        } catch let error as UsageError {
            let command = ArgumentParser.resolve(error.commandPath, root: root)
            console.error(error.message)
            console.info("Usage: \(HelpPrinter.usageLine(for: command, commandPath: error.commandPath, root: root))")
            console.info("  See '\(HelpPrinter.commandLine(error.commandPath, root: root)) --help' for more information.")
            return ExitStatus.usage.rawValue
        } catch {
            if let failure = console.outputFailure { return report(failure, console: console) }
            console.error(String(describing: error))
            return ExitStatus.failure.rawValue
        }
    }

    /// A failed write to stdout fails the command (a half-written export must not look
    /// complete), except that a reader who stopped reading ends it quietly, with the
    /// status a shell shows for a process ended by SIGPIPE, as other Unix tools do.
    private static func report(_ failure: OutputFailure, console: Console) -> Int32 {
        if failure.isClosedPipe { return 128 + 13 }
        console.error(failure.description)
        return ExitStatus.failure.rawValue
    }
}
