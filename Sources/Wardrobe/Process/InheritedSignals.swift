#if canImport(Glibc)
import Glibc
#endif

/// The stop signals a process was started with ignored. A POSIX shell starts a script's
/// background job with SIGINT ignored, so Ctrl-C at the terminal stops only the job in the
/// foreground; `nohup` ignores SIGHUP, and a supervisor may ignore SIGTERM. A program that
/// sets its own handler for such a signal undoes the choice of whoever started it, so every
/// place that takes a stop signal (`InterruptFlag`, the server's `TerminationSignals`) asks
/// here first and leaves an ignored one ignored.
public enum InheritedSignals {
    /// Whether `signal` is ignored now. Asked before this process sets its own handler, that
    /// is what the parent handed down: a handler is reset by exec, SIG_IGN is kept.
    public static func isIgnored(_ signal: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(signal, nil, &action) == 0 else { return false }
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Those of `signals` the process may take: the ones not ignored.
    public static func taken(_ signals: [Int32]) -> [Int32] {
        signals.filter { !isIgnored($0) }
    }
}
