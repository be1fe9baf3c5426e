/// One subcommand of `wardrobe`. A command parses its arguments in `init`
/// (throwing `UsageError` for wrong usage) and does its work in `run`,
/// returning the process exit status.
protocol Command {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws(UsageError)
    func run(_ console: Console) throws -> ExitStatus
}

/// A command that only groups subcommands (`wardrobe model ...`).
protocol CommandGroup: Command {}

extension CommandGroup {
    init(_ arguments: ParsedArguments) throws(UsageError) {
        throw UsageError("missing subcommand", commandPath: arguments.commandPath)
    }

    func run(_ console: Console) throws -> ExitStatus { .success }
}

/// Exit statuses, as `--help` states them.
enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The command failed as a whole.
    case failure = 1
    /// The command finished, but some inputs failed (e.g. files an import could not read).
    case partialFailure = 2
    /// EX_USAGE from sysexits.h: the command line was wrong.
    case usage = 64
    /// Stopped by Ctrl-C or SIGTERM after finishing its current batch (128 + SIGINT).
    case interrupted = 130
}
