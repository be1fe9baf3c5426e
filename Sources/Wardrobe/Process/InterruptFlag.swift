import Files
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP (the terminal closed). Inside a stoppable stretch (a run's
/// batches, an export or a backup), the first signal asks the work to stop after the items
/// in hand, so what is done is committed and the run closed; anywhere else (walking
/// folders, loading the model, training, a long query) nothing is half-written that a stop
/// would save, so the first signal ends the process at once. A second signal always does.
/// Either way Ctrl-C takes effect within a second, never after a whole phase, and a
/// signal that ends the process first removes the files written under a temporary name
/// (`PartialFiles`), so the output a person named is whole or untouched. A signal the
/// process was started with ignored (a script's background job, `nohup`) is left ignored.
public enum InterruptFlag {
    private static let raised = Atomic<Int>(0)
    /// How many stoppable stretches are running.
    private static let stoppable = Atomic<Int>(0)

    public static var isRaised: Bool { raised.load(ordering: .relaxed) > 0 }

    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { signal in
            let count = InterruptFlag.raised.add(1, ordering: .relaxed).newValue
            if count > 1 || InterruptFlag.stoppable.load(ordering: .relaxed) == 0 {
                PartialFiles.removeAll()
                // _exit, not exit: no atexit handler runs while other threads still work.
                _exit(128 + signal)
            }
        }
        // A signal the parent started us with ignored stays ignored (`InheritedSignals`).
        let taken = InheritedSignals.taken([SIGINT, SIGTERM, SIGHUP])
        for stop in taken { signal(stop, handler) }
        // A parent may have started us with these signals blocked (Foundation's
        // Process does); unblock them, or Ctrl-C would never reach the handler.
        var signals = sigset_t()
        sigemptyset(&signals)
        for stop in taken { sigaddset(&signals, stop) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Runs `body` as a stretch in which the first signal only raises the flag.
    /// A signal that came before the stretch began has ended the process already.
    public static func stoppable<T>(_ body: () throws -> T) rethrows -> T {
        stoppable.add(1, ordering: .relaxed)
        defer { stoppable.subtract(1, ordering: .relaxed) }
        return try body()
    }
}
