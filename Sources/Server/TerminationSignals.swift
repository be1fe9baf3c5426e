import Wardrobe
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM for a server: blocked in every thread (call `block`
/// before the server starts its threads, which inherit the mask) and taken
/// by `wait` on one thread, so no worker is ever interrupted mid-write. One the server
/// was started with ignored is left out (`InheritedSignals`): blocked, it would be queued
/// for `sigwait` rather than dropped, and a script's `wardrobe serve &` would stop at the
/// Ctrl-C meant for the command in the foreground.
public enum TerminationSignals {
    private static var set: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for taken in InheritedSignals.taken([SIGINT, SIGTERM]) { sigaddset(&signals, taken) }
        return signals
    }

    public static func block() {
        var signals = set
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Returns the signal that arrived (SIGINT or SIGTERM).
    public static func wait() -> Int32 {
        var signals = set
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }
}
