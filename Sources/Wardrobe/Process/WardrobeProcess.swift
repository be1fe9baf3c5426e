import Training

/// What a process that runs wardrobe's commands sets up once, before any
/// command: the executable's first line calls `start()`.
public enum WardrobeProcess {
    /// Stops the thread pool OpenBLAS starts when it loads, which would keep a
    /// core spinning for the process's first 0.13 s (`BLASThreads`): the
    /// trainer's matrices run on its own threads, nothing else uses BLAS.
    public static func start() {
        BLASThreads.useCallingThreadOnly()
    }
}
