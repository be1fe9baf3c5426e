import Training

/// What a process that runs wardrobe's commands sets up once, before any
/// command: the executable's first line calls `start()`.
public enum WardrobeProcess {
    /// Sets OpenBLAS to one thread before it is ever loaded (`BLASThreads`): loaded only when
    /// training multiplies, it then starts no pool of threads of its own, whose threads kept a
    /// core spinning for 0.13 s, or hung under a limit on address space.
    public static func start() {
        BLASThreads.setUpBeforeLoading()
    }
}
