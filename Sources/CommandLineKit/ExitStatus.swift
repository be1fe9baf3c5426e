/// Exit statuses, as `--help` states them.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The command failed as a whole.
    case failure = 1
    /// The command finished, but some inputs failed (e.g. files an import could not read).
    case partialFailure = 2
    /// EX_USAGE from sysexits.h: the command line was wrong.
    case usage = 64
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP after finishing its current batch (128 + SIGINT).
    case interrupted = 130
}
