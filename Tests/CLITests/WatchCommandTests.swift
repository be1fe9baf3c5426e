import Catalogue
import Foundation
import Imaging
import Testing

/// `wardrobe import --watch` as a user runs it: a file dropped into the folder is
/// imported (its sidecar passed over) and named with its label and confidence, a copy of it
/// named as a known image, and SIGTERM while it waits for the next ends it cleanly (not killed
/// outright by the signal) within a second. (Its lines used to name no file and no label:
/// `watch: 1 new images`.)
@Suite struct WatchCommandTests {
    @Test func sigtermBetweenBatchesStopsTheWatchCleanly() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (watch, db) = try Watch.startedOnEmptyFolder(in: folder)
        defer { watch.kill() }
        let process = watch.process
        func printed() -> String { watch.printed() }
        func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool { Watch.waitFor(seconds, condition) }

        // With its sidecar, which the watch passes over by name as import does.
        try folder.write(Array("<x:xmpmeta/>".utf8), to: "photos/new.png.xmp")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "photos/new.png")
        let named = "watch: \(folder.path("photos/new.png")): "
        #expect(waitFor(30) { printed().contains(named) }, "\(printed())")
        #expect(!printed().contains("not an image"), "\(printed())")
        let line = try #require(printed().split(separator: "\n").first { $0.hasPrefix(named) })
        let label = String(line.dropFirst(named.count).prefix { $0 != " " })
        #expect(line.hasSuffix("%") && ["Sandal", "Sneaker", "Bag", "Dress", "Shirt", "T-shirt/top", "Trouser", "Pullover",
                                        "Coat", "Ankle"].contains(label), "\(line)")
        try FileManager.default.copyItem(atPath: folder.path("photos/new.png"), toPath: folder.path("photos/copy.png"))
        #expect(waitFor(30) { printed().contains("watch: \(folder.path("photos/copy.png")): \(label)") }, "\(printed())")
        #expect(printed().contains("%, a known image under another name\n"), "\(printed())")
        // One path gone is said in the singular ("watch: 1 paths gone").
        try FileManager.default.removeItem(atPath: folder.path("photos/copy.png"))
        #expect(waitFor(30) { printed().contains("watch: 1 path gone, marked missing\n") }, "\(printed())")

        let asked = Date()
        kill(process.processIdentifier, SIGTERM)
        #expect(waitFor(5) { !process.isRunning })
        let stoppedAfter = Date().timeIntervalSince(asked)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "ended by \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        #expect(printed().contains("stopped watching"), "\(printed())")
        #expect(stoppedAfter < 1, "stopped \(stoppedAfter) s after SIGTERM")
        #expect(try Catalogue(path: db, mode: .readOnly).stats().images == 1)
    }

    /// A photo written slowly, its writer holding it open throughout (a phone syncing over
    /// Wi-Fi, a copy from a network share): a part, a pause longer than the watch's moment of
    /// quiet, the next part. Each pause was taken for the end of the copy: the part written so
    /// far was read and refused, "error: ...: truncated PNG" and "watch: 1 failed" once a
    /// pause, until the file was whole. It is read once, when its writer closes it.
    @Test func aPhotoWrittenSlowlyIsReadOnceWhenItsWriterClosesIt() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (watch, db) = try Watch.startedOnEmptyFolder(in: folder)
        defer { watch.kill() }
        func printed() -> String { watch.printed() }

        let bytes = try PNGEncoder().encode(PhotoFolder.fashionBitmap(3))
        let path = folder.path("photos/slow.png")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let part = bytes.count / 3 + 1
        for start in stride(from: 0, to: bytes.count, by: part) {
            try writer.write(contentsOf: bytes[start..<min(start + part, bytes.count)])
            Thread.sleep(forTimeInterval: 1)
        }
        try writer.close()

        #expect(Watch.waitFor(30) { printed().contains("watch: \(path): ") }, "\(printed())")
        #expect(!printed().contains("error:") && !printed().contains("watch: 1 failed"), "\(printed())")
        #expect(try Catalogue(path: db, mode: .readOnly).stats().images == 1)
        #expect(try WardrobeProcess.run(["failures", "--db", db, "--json"]).stdout.filter { !$0.isWhitespace } == "[]")
    }

    /// The watched folder deleted, or moved away, while the watch waits: it used to go on
    /// saying nothing and importing nothing, "watching 1 folder" with none watched. Each such
    /// folder is an error naming it; with none left the watch ends, status 1, what it
    /// imported kept.
    @Test(arguments: ["deleted", "moved"])
    func aWatchedFolderThatGoesIsSaidToAndEndsTheWatch(how: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "photos/first.png")
        let db = folder.path("c.sqlite")
        let photos = folder.path("photos")
        let watch = try Watch(db: db, folder: photos, log: folder.path("output.txt"))
        defer { watch.kill() }
        let process = watch.process
        func printed() -> String { watch.printed() }
        func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool { Watch.waitFor(seconds, condition) }
        try #require(waitFor(60) { printed().contains("watching 1 folder;") }, "\(printed())")

        if how == "deleted" {
            try FileManager.default.removeItem(atPath: photos)
        } else {
            try FileManager.default.moveItem(atPath: photos, toPath: folder.path("elsewhere"))
        }
        try #require(waitFor(10) { !process.isRunning }, "still running: \(printed())")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(printed())")
        #expect(printed().contains("error: \(photos): the watched folder was deleted or moved away; it is watched no more\n"),
                "\(printed())")
        #expect(printed().hasSuffix("stopped watching: no folder is left to watch\n"), "\(printed())")
        #expect(try Catalogue(path: db, mode: .readOnly).stats().images == 1, "the first import kept")
    }
}

/// `wardrobe import --watch --db DB FOLDER` running, everything it prints going to `log`.
private struct Watch {
    let process = Process()
    let log: String

    init(db: String, folder: String, log: String) throws {
        self.log = log
        FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.executableURL = WardrobeProcess.executable
        process.arguments = ["import", "--watch", "--db", db, "--prep", "fashion-mnist", folder]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    func printed() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// A watch of the empty folder `photos` in `folder`, into the catalogue `c.sqlite` there,
    /// once it says it is watching.
    static func startedOnEmptyFolder(in folder: PhotoFolder) throws -> (watch: Watch, db: String) {
        try FileManager.default.createDirectory(atPath: folder.path("photos"), withIntermediateDirectories: true)
        let db = folder.path("c.sqlite")
        let watch = try Watch(db: db, folder: folder.path("photos"), log: folder.path("output.txt"))
        guard waitFor(60, { watch.printed().contains("watching 1 folder;") }) else {
            watch.kill()
            throw WatchNotStarted(printed: watch.printed())
        }
        return (watch, db)
    }

    struct WatchNotStarted: Error { var printed: String }

    func kill() { if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) } }

    static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { if condition() { return true }; usleep(50_000) }
        return condition()
    }
}
