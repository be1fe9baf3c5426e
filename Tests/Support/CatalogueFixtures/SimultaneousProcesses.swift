import Foundation

/// Several processes of one program started together, for tests of races
/// between processes (imports of one folder, openings of one new catalogue):
/// every one is started before any is waited for, and each one's exit status
/// and stderr come back in the order they were started.
public enum SimultaneousProcesses {
    public struct Outcome: Sendable {
        public let status: Int32
        public let stderr: String
    }

    /// `count` runs of `executable` with `arguments`; stdout is discarded.
    /// `environment` replaces the inherited one when given.
    public static func run(_ executable: URL, _ arguments: [String], count: Int,
                           environment: [String: String]? = nil) throws -> [Outcome] {
        let children = try (0..<count).map { _ -> (Process, Pipe) in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        return children.map { process, errors in
            // Read before waiting, so a chatty child cannot block on a full pipe.
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, stderr: text)
        }
    }
}
