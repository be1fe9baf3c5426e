#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads that can be waited for. The run engine joins every worker before
/// it returns or throws, so no worker outlives its run: a worker still
/// hashing while the process exits runs into libcrypto's clean-up and
/// crashes. Foundation's `Thread` cannot be joined, hence POSIX threads.
final class WorkerThreads {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    #if canImport(Darwin)
    private var threads: [pthread_t?] = []
    #else
    private var threads: [pthread_t] = []
    #endif

    /// Starts `count` threads, each running `body`. When a thread cannot be
    /// started, those already running go on; the caller stops and joins them.
    func start(count: Int, stackSize: Int = 4 << 20, _ body: @escaping @Sendable () -> Void) throws(WardrobeError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // Decoders and the photo recipe keep sizeable frames.
        pthread_attr_setstacksize(&attributes, stackSize)
        for _ in 0..<count {
            let context = Unmanaged.passRetained(Body(body)).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            let code = pthread_create(&thread, &attributes, { context in
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
            #else
            var thread = pthread_t()
            let code = pthread_create(&thread, &attributes, { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
            #endif
            guard code == 0 else {
                Unmanaged<Body>.fromOpaque(context).release()
                throw .system("cannot start a worker thread: \(String(cString: strerror(code)))")
            }
            threads.append(thread)
        }
    }

    /// Waits until every started thread has ended.
    func join() {
        for thread in threads {
            #if canImport(Darwin)
            if let thread { pthread_join(thread, nil) }
            #else
            pthread_join(thread, nil)
            #endif
        }
        threads.removeAll()
    }
}
