import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// A signal while a command writes a file a person named (`export --output`, `backup`,
/// `model train --out`, `prep --out`): every one writes under a temporary name beside the
/// file and renames it when whole, but a signal that ended the process there left the part
/// (a hidden `.FILE.XXXXXX`, megabytes for an export) behind: every time for an export, and
/// for the others whenever it came while they wrote. A closed terminal (SIGHUP) ended even
/// an export or a backup that Ctrl-C stopped cleanly.
@Suite(.serialized) struct InterruptedOutputTests {
    /// A catalogue whose full export takes a good part of a second.
    private static func catalogue(at path: String, images: Int) throws {
        let catalogue = try Catalogue(path: path)
        let model = try catalogue.registerModel(Synthetic.model(3))
        let run = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 1))
        for start in stride(from: 0, to: images, by: 2_000) {
            try catalogue.insertImages((start..<min(images, start + 2_000)).map { Synthetic.image($0, thumbnailBytes: 0) }, run: run)
        }
        try catalogue.closeRun(run, counts: RunCounts(seen: images, imported: images, classified: images))
    }

    private typealias Ending = ShellStartedCommand.Ending

    /// Starts `wardrobe arguments` as a shell starts a command (`ShellStartedCommand`), waits
    /// until the `nth` file is made in `folder` (the command's temporary output), sends `signal`
    /// at once and waits for the command to end. `ignoring` are the signals it starts with ignored.
    private static func run(_ arguments: [String], signal: Int32, whenFile nth: Int = 1,
                            isMadeIn folder: String, ignoring: [Int32] = []) throws -> Ending {
        let creations = try FolderCreations(folder)
        let command = try ShellStartedCommand(arguments, ignoring: ignoring)
        var seen = 0
        while seen < nth, creations.next(within: 120) != nil { seen += 1 }
        try #require(seen == nth, "the command made \(seen) temporary files, not \(nth)")
        command.send(signal)
        return command.wait()
    }

    /// As `run`, for a command whose write is short enough to finish before a loaded machine
    /// delivers the signal: then it is run again (up to five times, `reset` putting the old
    /// file back first), and the ending returned is the first one the signal stopped.
    private static func runUntilStopped(_ arguments: [String], signal: Int32, whenFile nth: Int = 1,
                                        isMadeIn folder: String, reset: () throws -> Void) throws -> Ending {
        var ending: Ending
        var attempt = 0
        repeat {
            try reset()
            ending = try run(arguments, signal: signal, whenFile: nth, isMadeIn: folder)
            attempt += 1
        } while ending.status == 0 && attempt < 5
        return ending
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aStoppedExportLeavesNothingAndKeepsTheOldFile(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try Self.catalogue(at: db, images: 60_000)
        let target = folder.path("out/export.csv")
        try folder.write(Array("the export before\n".utf8), to: "out/export.csv")

        let out = folder.path("out")
        let ending = try Self.run(["export", "--db", db, "--all", "--output", target], signal: signal, isMadeIn: out)
        #expect(ending == Ending(status: 130, stderr: "interrupted: nothing was written to \(target)\n"), "\(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["export.csv"], "no part left behind")
        #expect(FileManager.default.contents(atPath: target) == Data("the export before\n".utf8))
    }

    /// Started with the signal ignored (`wardrobe export ... &` in a script ignores SIGINT,
    /// `nohup` SIGHUP), the export does not see it and writes every row: Ctrl-C meant for the
    /// command in the foreground used to stop it with 130, as did a SIGTERM its parent ignored.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anExportStartedWithTheSignalIgnoredGoesOn(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try Self.catalogue(at: db, images: 60_000)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let target = folder.path("out/export.csv")
        let ending = try Self.run(["export", "--db", db, "--all", "--output", target], signal: signal,
                                  isMadeIn: folder.path("out"), ignoring: [signal])
        #expect(ending == Ending(status: 0, stderr: "exported 60000 rows to \(target)\n"), "\(ending)")
        let rows = try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n").count
        #expect(rows == 60_001, "a header and every row")
    }

    /// A closed terminal stops a backup as Ctrl-C does: status 130, as an export stopped so
    /// (it was 1, a failure like a full disk), the part removed.
    @Test func aBackupStoppedByAClosedTerminalLeavesNothing() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try Self.catalogue(at: db, images: 60_000)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let target = folder.path("out/copy.sqlite")
        let ending = try Self.run(["backup", "--db", db, target], signal: SIGHUP, isMadeIn: folder.path("out"))
        #expect(ending == Ending(status: 130, stderr: "interrupted: no backup was made at \(target); the part already copied was removed\n"),
                "stopped, not killed: \(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == [], "no part left behind")
    }

    /// A copy into a new SQLite catalogue stopped by a signal: the process died of it (no
    /// handler) and left DEST there, a new catalogue with no row and its -wal and -shm, which
    /// looked like a copy that had been made. Now nothing of it is left, and the status says why.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aCopyStoppedBySignalLeavesNoCatalogueBehind(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try Self.catalogue(at: db, images: 60_000)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let ending = try Self.run(["copy", db, folder.path("out/copy.sqlite")], signal: signal, isMadeIn: folder.path("out"))
        #expect(ending.status == 128 + signal, "stopped by its own handler, not killed: \(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == [], "no catalogue left behind")
    }

    /// Signalled while it writes the model (its second temporary file: the first only checks,
    /// before the training, that the model can go there).
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"),
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func aTrainingStoppedWhileItWritesTheModelLeavesTheOldOne(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let target = folder.path("out/my.aimodel")
        let ending = try Self.runUntilStopped(["model", "train", "--limit", "64", "--epochs", "1", "--out", target],
                                              signal: signal, whenFile: 2, isMadeIn: folder.path("out")) {
            try folder.write(Array("the model before\n".utf8), to: "out/my.aimodel")
        }
        #expect(ending.status == 128 + signal, "ended with the signal's status, not killed: \(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == ["my.aimodel"], "no part left behind")
        #expect(FileManager.default.contents(atPath: target) == Data("the model before\n".utf8))
    }

    @Test(arguments: [SIGINT, SIGHUP])
    func aPrepStoppedWhileItWritesTheTensorLeavesTheOldOne(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let target = folder.path("out/tensor.png")
        let sample = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"
        let ending = try Self.runUntilStopped(["prep", sample, "--out", target], signal: signal,
                                              isMadeIn: folder.path("out")) {
            try folder.write(Array("the tensor before\n".utf8), to: "out/tensor.png")
        }
        #expect(ending.status == 128 + signal, "ended with the signal's status, not killed: \(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")) == ["tensor.png"], "no part left behind")
        #expect(FileManager.default.contents(atPath: target) == Data("the tensor before\n".utf8))
    }
}

/// The names made in one folder, told by inotify the moment each is made, so a test can act
/// while a command is still writing a file it just made.
private final class FolderCreations {
    private let descriptor: Int32
    private var pending: [String] = []

    init(_ folder: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, UInt32(IN_CREATE)) >= 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: folder])
        }
    }

    deinit { close(descriptor) }

    /// The next name made, or nil after `seconds` with none.
    func next(within seconds: Double) -> String? {
        while pending.isEmpty {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(seconds * 1000)) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            var offset = 0
            while offset + 16 <= count {
                let length = buffer[offset + 12..<offset + 16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                let name = buffer[offset + 16..<offset + 16 + length].prefix { $0 != 0 }
                pending.append(String(decoding: name, as: UTF8.self))
                offset += 16 + length
            }
        }
        return pending.removeFirst()
    }
}
