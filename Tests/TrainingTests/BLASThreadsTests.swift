import Testing
import Training

/// OpenBLAS's pthread build starts a pool of threads when it loads, which
/// spin for a while waiting for work; every wardrobe process stops it first
/// (`BLASThreads`), and training still works on one thread after that.
@Suite struct BLASThreadsTests {
    @Test func thePoolIsStoppedAndStaysStopped() throws {
        BLASThreads.useCallingThreadOnly()
        #expect(!BLASThreads.poolIsRunning)
        // Asked again (the trainer asks at every run), it does not start a new pool.
        BLASThreads.useCallingThreadOnly()
        #expect(!BLASThreads.poolIsRunning)
    }
}
