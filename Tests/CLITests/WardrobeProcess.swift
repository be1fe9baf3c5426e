import Foundation

/// Runs the built `wardrobe` binary, which SwiftPM places next to the test bundle.
struct WardrobeProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the runner lives inside the .xctest bundle.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("wardrobe").path),
              directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("wardrobe")
    }()

    /// Runs with a clean environment: no terminal, no inherited catalogue.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    currentDirectory: URL? = nil, input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        env.merge(environment) { $1 }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // Small inputs only: written whole before the output is read.
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes before waiting. They are read one after the other, so a child
        // that writes more than a pipe holds (64 KB) to standard error blocks: such a
        // test passes `errorsTo` a file instead.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs as `run` does, with standard output discarded and standard error written to the
    /// file `errorsTo`, however long; returns the exit status and standard error.
    static func run(_ arguments: [String], errorsTo path: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try errors.close()
        return (process.terminationStatus, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Runs `script` with /bin/sh, the binary's path as `$0` and `arguments` as `$1`..., in
    /// `folder` when given: an argument or a variable can then hold bytes that are not UTF-8
    /// (`Process` takes them as Swift strings).
    static func shell(_ script: String, _ arguments: [String] = [], in folder: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, executable.path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a shell command line on a terminal of its own (util-linux `script`), as a
    /// person at a terminal would see it: the output's lines, carriage returns taken out.
    static func onTerminal(_ command: String) throws -> [Substring] {
        try terminalText(command).replacingOccurrences(of: "\r", with: "").split(separator: "\n")
    }

    /// The same command's output as the terminal got it, carriage returns and escapes and all:
    /// for what redraws a line.
    static func terminalText(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
}
