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
/// BLAS. But OpenBLAS's pthread build (Debian's default) starts its pool when
/// the library loads, and each pool thread spins in `sched_yield` for about
/// 0.13 s waiting for work that never comes, then sleeps: in every process
/// that links the library, `wardrobe import` and `wardrobe list` alike, a core
/// is busy for the first 0.13 s, while a short import's workers already need
/// both (measured: 0.3 ms of CPU per image on an import of 300 small WebPs).
/// Stopping the pool early ends that.
public enum BLASThreads {
    /// Sets OpenBLAS to one thread and stops the pool it started when it
    /// loaded. Done once per process, however often it is called: setting the
    /// thread count again would start a new pool (OpenBLAS restarts a stopped
    /// pool then). Call it as early as possible (the executable's first line). Every kernel
    /// that multiplies calls it first as well (after the first time it costs a load and a
    /// branch): stopped while a multiplication was in its threads' hands, the pool never
    /// finished it, and the caller waited for ever (a test process, which runs kernels on
    /// several threads at once and never ran the executable's first line, hung so).
    public static func useCallingThreadOnly() {
        _ = stopped
    }

    private static let stopped: Void = {
        openblas_set_num_threads(1)
        // Not in cblas.h: the pthread build's own shutdown (its fork handlers
        // use it). Looked up rather than linked, so that a system whose
        // libopenblas is the serial or OpenMP build, which lack it, works too.
        if let symbol = symbol("blas_thread_shutdown_") {
            typealias Shutdown = @convention(c) () -> Int32
            _ = unsafeBitCast(symbol, to: Shutdown.self)()
        }
    }()

    /// Whether OpenBLAS's pool is running (its pthread build's `blas_server_avail`);
    /// false for a build without a pool. Tests ask it.
    public static var poolIsRunning: Bool {
        symbol("blas_server_avail").map { $0.load(as: Int32.self) != 0 } ?? false
    }

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        // RTLD_DEFAULT: every library the process has loaded.
        #if canImport(Darwin)
        dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
        #else
        dlsym(nil, name)
        #endif
    }
}
