#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM for a server: blocked in every thread (call `block`
/// before the server starts its threads, which inherit the mask) and taken
/// by `wait` on one thread, so no worker is ever interrupted mid-write.
public enum TerminationSignals {
    private static var set: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
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
