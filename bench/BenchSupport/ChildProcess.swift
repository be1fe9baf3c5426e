#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One run of another program, timed from spawn to exit.
public struct ChildRun {
    public let status: Int32
    /// What it wrote to stdout, when captured.
    public let stdout: Data
    public let seconds: Double
    /// CPU time the child used, user and system: close to what an idle machine
    /// would show when wall time is stretched by other jobs.
    public let cpuSeconds: Double
}

/// Runs a program and waits for it with `posix_spawn` and `waitpid`.
/// Foundation's `Process` added about 28 ms of its own to every run (a
/// 23 ms `wardrobe list` timed as 51 ms), which buried what a benchmark of
/// whole commands is meant to see.
///
/// stdout is captured or sent to /dev/null; stderr goes to `stderrPath`
/// when given, else to this process's stderr.
public func runChild(_ executable: String, _ arguments: [String], captureStdout: Bool,
                     stderrPath: String? = nil) throws -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }

    var pipeEnds: [Int32] = [-1, -1]
    if captureStdout {
        guard pipe(&pipeEnds) == 0 else { throw ChildProcessError.cannotStart(executable, errno) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    }
    if let stderrPath {
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = wallSeconds()
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    if captureStdout { close(pipeEnds[1]) }
    guard spawned == 0 else {
        if captureStdout { close(pipeEnds[0]) }
        throw ChildProcessError.cannotStart(executable, spawned)
    }

    var output = Data()
    if captureStdout {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count > 0 { output.append(contentsOf: buffer[..<count]) }
            else if count == 0 || errno != EINTR { break }
        }
        close(pipeEnds[0])
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    let seconds = wallSeconds() - start
    func total(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    // The exit code for a normal exit, 128 + the signal for a killed child, as a shell reports it.
    let signal = status & 0x7f
    return ChildRun(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: output, seconds: seconds,
                    cpuSeconds: total(usage.ru_utime) + total(usage.ru_stime))
}

public enum ChildProcessError: Error, CustomStringConvertible {
    case cannotStart(String, Int32)

    public var description: String {
        switch self {
        case let .cannotStart(executable, code): "cannot run \(executable): \(String(cString: strerror(code)))"
        }
    }
}
