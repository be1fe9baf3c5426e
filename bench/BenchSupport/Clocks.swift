import Foundation

/// Seconds on one of the kernel's clocks. Benchmarks report CPU time beside
/// wall time because, on a machine shared with other jobs, CPU time stays
/// close to what an idle machine would show and wall time does not.
func clockSeconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Wall time, monotonic.
public func wallSeconds() -> Double { clockSeconds(CLOCK_MONOTONIC) }

/// CPU time of the whole process: every thread, user and system.
public func processCPUSeconds() -> Double { clockSeconds(CLOCK_PROCESS_CPUTIME_ID) }

/// CPU time of the calling thread.
public func threadCPUSeconds() -> Double { clockSeconds(CLOCK_THREAD_CPUTIME_ID) }
