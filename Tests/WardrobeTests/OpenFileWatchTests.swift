import Foundation
import Testing
@testable import Wardrobe

/// How long the watch waits for a file its writer still holds open (`FolderWatcher`'s
/// `settleWhileOpen`): a file written and closed settles after the short quiet, and one
/// written and still open only after the longer one, so a slow writer's pauses are not taken
/// for the end of its copy, and a writer that never closes its file still has it read.
@Suite struct OpenFileWatchTests {
    private static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "wardrobe-open-watch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The ready files of every look until one is ready or `seconds` pass, and when it came.
    private static func firstReady(_ watcher: FolderWatcher, within seconds: Double) -> (ready: [String], after: Double) {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            let ready = watcher.look(timeout: 0.05).ready
            if !ready.isEmpty { return (ready, Date().timeIntervalSince(started)) }
        }
        return ([], seconds)
    }

    @Test func aFileStillOpenWaitsForTheLongerQuietAndIsThenTaken() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watcher = try FolderWatcher(paths: [folder], settle: 0.2, settleWhileOpen: 1.5)
        let path = folder + "/open.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? writer.close() }
        try writer.write(contentsOf: [UInt8](repeating: 7, count: 1000))

        let (ready, after) = Self.firstReady(watcher, within: 10)
        #expect(ready == [path])
        #expect(after >= 1.4, "taken \(after) s after its last write, its writer still holding it")
    }

    @Test func aFileWrittenAndClosedIsTakenAfterTheShortQuiet() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watcher = try FolderWatcher(paths: [folder], settle: 0.2, settleWhileOpen: 30)
        let path = folder + "/closed.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try writer.write(contentsOf: [UInt8](repeating: 7, count: 1000))
        try writer.close()

        let (ready, _) = Self.firstReady(watcher, within: 10)
        #expect(ready == [path], "not taken within 10 s of its writer closing it")
    }
}
