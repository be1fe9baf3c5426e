import COpenBLAS
import Testing
import Training

/// OpenBLAS's pthread build starts a pool of threads when it loads, which
/// spin for a while waiting for work, unless it loads with one thread; it is
/// loaded so when training first multiplies (`BLASThreads`), and training
/// works on one thread.
@Suite struct BLASThreadsTests {
    @Test func thePoolIsStoppedAndStaysStopped() throws {
        BLASThreads.useCallingThreadOnly()
        #expect(wardrobe_openblas_symbol("cblas_sgemm") != nil, "OpenBLAS is loaded")
        #expect(!BLASThreads.poolIsRunning)
        // Asked again (the trainer asks at every run), it does not start a new pool.
        BLASThreads.useCallingThreadOnly()
        #expect(!BLASThreads.poolIsRunning)
    }
}
