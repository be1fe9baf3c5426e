import COpenBLAS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenBLAS runs on the thread that calls it, never on threads of its own.
///
/// The trainer multiplies on its own threads, one matrix each, so OpenBLAS's
/// pool would only compete with them, and nothing else in the package calls
/// BLAS. OpenBLAS's pthread build (Debian's default) starts its pool when the
/// library loads, unless `OPENBLAS_NUM_THREADS` is 1 then: each pool thread
/// spins in `sched_yield` for about 0.13 s waiting for work that never comes,
/// and under a limit on address space (`ulimit -v`) retries its buffer's
/// allocation for ever. So the library is loaded only when training first
/// multiplies (`Sources/COpenBLAS`), with that variable set to 1 before it
/// loads: the executable sets it at its first line (`setUpBeforeLoading`),
/// while it has one thread, and the loader sets it where no one did.
public enum BLASThreads {
    /// Sets `OPENBLAS_NUM_THREADS=1` for the library to read when it loads. For the
    /// executable's first line: `setenv` is safe only while no other thread reads the environment.
    public static func setUpBeforeLoading() {
        setenv("OPENBLAS_NUM_THREADS", "1", 1)
    }

    /// Loads OpenBLAS (with one thread) and, should a pool be running all the same, sets it
    /// to one thread and stops the pool. Done once per process, however often it is called:
    /// setting the thread count again would start a new pool (OpenBLAS restarts a stopped
    /// pool then). Every kernel that multiplies calls it first (after the first time it costs
    /// a load and a branch): stopped while a multiplication was in its threads' hands, the
    /// pool never finished it, and the caller waited for ever.
    public static func useCallingThreadOnly() {
        _ = stopped
    }

    private static let stopped: Void = {
        var problem: UnsafePointer<CChar>?
        guard wardrobe_load_openblas(&problem) == 1 else {
            // A kernel's first multiplication stops the process with this reason.
            return
        }
        guard poolIsRunning else { return }
        openblas_set_num_threads(1)
        // Not in cblas.h: the pthread build's own shutdown (its fork handlers use it),
        // looked up so that the serial or OpenMP build, which lack it, works too.
        if let symbol = wardrobe_openblas_symbol("blas_thread_shutdown_") {
            typealias Shutdown = @convention(c) () -> Int32
            _ = unsafeBitCast(symbol, to: Shutdown.self)()
        }
    }()

    /// Whether OpenBLAS's pool is running (its pthread build's `blas_server_avail`);
    /// false for a build without a pool. Tests ask it.
    public static var poolIsRunning: Bool {
        wardrobe_openblas_symbol("blas_server_avail").map { $0.load(as: Int32.self) != 0 } ?? false
    }
}
