import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM ask a long command to stop after the current batch.
/// The first signal sets the flag; a second one ends the process at once.
public enum InterruptFlag {
    private static let raised = Atomic<Int>(0)

    public static var isRaised: Bool { raised.load(ordering: .relaxed) > 0 }

    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { signal in
            if InterruptFlag.raised.add(1, ordering: .relaxed).newValue > 1 {
                _exit(128 + signal)
            }
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may have started us with these signals blocked (Foundation's
        // Process does); unblock them, or Ctrl-C would never reach the handler.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
