import Foundation

/// Several processes of one program started together, for tests of races
/// between processes (imports of one folder, openings of one new catalogue):
/// every one is started before any is waited for, and each one's exit status,
/// stdout and stderr come back in the order they were started.
public enum SimultaneousProcesses {
    public struct Outcome: Sendable {
        public let status: Int32
        public let stderr: String
        public var stdout = ""
    }

    /// `count` runs of `executable` with `arguments`; each one's stdout goes to a file of
    /// its own, read when it has ended, so that no child waits on a full pipe.
    /// `environment` replaces the inherited one when given.
    public static func run(_ executable: URL, _ arguments: [String], count: Int,
                           environment: [String: String]? = nil) throws -> [Outcome] {
        let outputs = (0..<count).map { _ in NSTemporaryDirectory() + "simultaneous-\(UUID().uuidString).out" }
        defer { for output in outputs { try? FileManager.default.removeItem(atPath: output) } }
        let children = try outputs.map { output -> (Process, Pipe) in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            let errors = Pipe()
            FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        return zip(children, outputs).map { child, output in
            let (process, errors) = child
            // Read before waiting, so a chatty child cannot block on a full pipe.
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, stderr: text,
                           stdout: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
    }
}
