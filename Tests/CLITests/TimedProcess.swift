import Foundation

/// Runs the built `wardrobe` binary with a deadline: a command that hangs is killed
/// and reported as such, so a test about hanging fails instead of hanging itself.
struct TimedProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        /// True when the deadline passed and the process was killed.
        var timedOut: Bool
    }

    static func run(_ arguments: [String], seconds deadline: Double, environment: [String: String] = [:],
                    stdout: FileHandle? = nil, currentDirectory: URL? = nil) throws -> Result {
        let process = Process()
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.executableURL = WardrobeProcess.executable
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        // Drain both pipes on their own threads, so the child never blocks on a full one.
        let outText = Drain(stdout == nil ? out.fileHandleForReading : nil)
        let errText = Drain(err.fileHandleForReading)
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outText.text(), stderr: errText.text(),
                      seconds: Date().timeIntervalSince(start), timedOut: timedOut)
    }

    /// Reads a pipe to its end on a thread of its own.
    final class Drain: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle?) {
            guard let handle else {
                done.signal()
                return
            }
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
