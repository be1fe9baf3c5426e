import Foundation
import Imaging
import Testing

/// `wardrobe serve` on a catalogue, read-only unless asked, on a free port, as a process of its own: a
/// crash is the server's, seen by the test, not the end of the test runner.
final class ServeProcess {
    private let process: Process
    let port: Int

    /// `options`: more of serve's options (`--candidate MODEL`); `standardError`: where its
    /// log goes (nowhere, unless a test reads it or makes it fail); `log`, a file for it instead.
    init(db: String, options: [String] = [], readOnly: Bool = true,
         standardError: FileHandle = FileHandle.nullDevice, log: String? = nil) throws {
        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = ["serve", "--db", db, "--port", "0"] + (readOnly ? ["--read-only"] : []) + options
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let out = Pipe()
        process.standardOutput = out
        if let log, FileManager.default.createFile(atPath: log, contents: nil) {
            process.standardError = FileHandle(forWritingAtPath: log)
        } else {
            process.standardError = standardError
        }
        try process.run()
        do {
            port = try Self.port(from: out.fileHandleForReading)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        self.process = process
    }

    /// A new folder holding `c.sqlite`, a catalogue of one Fashion-MNIST image imported with
    /// its own recipe, and serve on it; the caller stops the server and removes the folder.
    static func onOneImage() throws -> (folder: PhotoFolder, server: ServeProcess) {
        let folder = try PhotoFolder()
        do {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/0.png")
            let db = folder.path("c.sqlite")
            let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--quiet",
                                                    folder.path("photos")])
            try #require(imported.status == 0, "\(imported.stderr)")
            return (folder, try ServeProcess(db: db))
        } catch {
            folder.remove()
            throw error
        }
    }

    var isRunning: Bool { process.isRunning }

    /// Ends the server (each test defers it: a deinit could run as soon as the port is read).
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The port of the address serve prints on its first line of stdout.
    static func port(from output: FileHandle) throws -> Int {
        var banner = Data()
        while !banner.contains(UInt8(ascii: "\n")) {
            let piece = output.availableData
            try #require(!piece.isEmpty, "serve ended before printing its address")
            banner += piece
        }
        let line = String(decoding: banner, as: UTF8.self)
        return try #require(line.firstMatch(of: /127\.0\.0\.1:(\d+)\//).flatMap { Int($0.1) }, "\(line)")
    }

    /// Asks for `target` on a connection of its own and expects an answer with `status`
    /// (`KeepAliveHTTP` throws on any answer but 200, its text holding the status line).
    func expectStatus(_ status: Int, for target: String) {
        do {
            _ = try KeepAliveHTTP(port: port).get(target)
            Issue.record("\(target) was answered 200")
        } catch {
            #expect("\(error)".contains("HTTP/1.1 \(status)"), "\(target): \(error)")
        }
    }
}
