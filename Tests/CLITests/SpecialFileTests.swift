import Foundation
import Imaging
import Testing

/// Paths that name something other than a regular file: a FIFO (which a plain `open`
/// waits on forever), a device, a folder. Every command that reads a file refuses them
/// at once with one line; none hangs.
@Suite(.serialized) struct SpecialFileTests {
    static func fifo(in folder: PhotoFolder, named name: String) throws -> String {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
        return path
    }

    /// `--db` naming a FIFO (SQLite's open waited on it forever) or a device (read as an
    /// empty catalogue "to be upgraded", even by `import`): every command says what it is.
    @Test(arguments: [["list"], ["stats"], ["export"], ["history", "1"], ["label", "coat", "1"], ["check"],
                      ["import", "EMPTY"], ["reclassify"], ["backup", "/tmp/never-made-backup"]])
    func aCatalogueThatIsAFIFOOrADeviceIsRefusedAtOnce(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let fifo = try Self.fifo(in: folder, named: "catalogue.sqlite")
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: false)
        let arguments = command.dropFirst().map { $0 == "EMPTY" ? folder.path("empty") : $0 }
        for (db, kind) in [(fifo, "a FIFO"), ("/dev/null", "a character device")] {
            let result = try TimedProcess.run([command[0], "--db", db] + arguments, seconds: 20)
            #expect(!result.timedOut, "\(command) hung on \(db) for \(result.seconds) s")
            #expect(result.status == 1, "\(command) \(db): status \(result.status)")
            #expect(result.stderr == "error: \(db): not a wardrobe catalogue: \(kind), where a catalogue is a regular file\n",
                    "\(command) \(db): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).sorted() == ["catalogue.sqlite", "empty"])
    }

    @Test func classifyRefusesAFIFOAtOnce() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let fifo = try Self.fifo(in: folder, named: "pipe.jpg")
        let result = try TimedProcess.run(["classify", "--no-save", fifo], seconds: 20)
        #expect(!result.timedOut, "classify hung on a FIFO for \(result.seconds) s")
        #expect(result.status != 0)
        #expect(result.stderr.contains("pipe.jpg") && result.stderr.contains("not a regular file (a FIFO)"), "\(result.stderr)")
    }

    /// A FIFO named on the command line fails before it is read; the summary counts it among
    /// the files found (it said "Imported 0 of 0 files ... 1 failed").
    @Test func importCountsAFIFOItCouldNotReadAmongTheFilesFound() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let fifo = try Self.fifo(in: folder, named: "pipe.jpg")
        let result = try TimedProcess.run(["import", "--db", folder.path("db.sqlite"), "--quiet", fifo], seconds: 20)
        #expect(!result.timedOut && result.status == 2, "status \(result.status): \(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 0 of 1 file into "), "\(result.stdout)")
        #expect(result.stdout.hasSuffix(": 0 already there, 1 failed\n"), "\(result.stdout)")
    }

    @Test func prepRefusesAFIFOAtOnce() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let fifo = try Self.fifo(in: folder, named: "pipe.png")
        let result = try TimedProcess.run(["prep", fifo], seconds: 20)
        #expect(!result.timedOut, "prep hung on a FIFO for \(result.seconds) s")
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a regular file (a FIFO)"), "\(result.stderr)")
    }

    @Test func aModelOrMapThatIsAFIFOIsRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let fifo = try Self.fifo(in: folder, named: "model.aimodel")
        let info = try TimedProcess.run(["model", "info", fifo], seconds: 20)
        #expect(!info.timedOut, "model info hung on a FIFO")
        #expect(info.status != 0 && info.stderr.contains("not a regular file"), "\(info.stderr)")
        let classify = try TimedProcess.run(["classify", "--sample", "--no-save", "--model", fifo], seconds: 20)
        #expect(!classify.timedOut, "classify --model hung on a FIFO")
        #expect(classify.status != 0 && classify.stderr.contains("not a regular file"), "\(classify.stderr)")
        let map = try TimedProcess.run(["model", "evaluate", "--images", folder.path(""), "--map", fifo], seconds: 20)
        #expect(!map.timedOut, "model evaluate --map hung on a FIFO")
        #expect(map.status != 0 && map.stderr.contains("not a regular file"), "\(map.stderr)")
    }

    /// A model that cannot be read is one line, the same for every command that reads it; prep
    /// named it twice ('model X: cannot read model X: is a directory').
    @Test func aModelThatCannotBeReadIsTheSameLineForEveryCommand() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "models/a.aimodel/x.png")
        let model = folder.path("models/a.aimodel")
        for command in [["model", "info", model], ["classify", "--sample", "--no-save", "--model", model],
                        ["prep", "--model", model, folder.path("models/a.aimodel/x.png")]] {
            let result = try TimedProcess.run(command, seconds: 20)
            #expect(result.status == 1 && result.stderr == "error: model \(model): cannot read: is a directory\n",
                    "\(command): \(result.stderr)")
        }
    }

    /// A FIFO beside the file a command writes, under the name of an old backup's copy whose
    /// process is gone (`NAME.partial-PID`): the look for such copies to remove opened it with a
    /// plain open, which waits for a writer forever, so backup, export --output and prep --out
    /// hung there, and SIGTERM did not end them. It is no copy of theirs: passed over, and left.
    @Test(arguments: [["backup", "--db", "DB", "OUT/b.sqlite"], ["export", "--db", "DB", "--output", "OUT/e.csv"],
                      ["prep", "PHOTO", "--out", "OUT/t.png"]])
    func aFIFONamedAsAnOldCopyBesideTheOutputIsNotWaitedOn(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let fifo = try Self.fifo(in: folder, named: "out/old.sqlite.partial-\(ended.processIdentifier)")
        let arguments = command.map {
            $0 == "DB" ? db : $0 == "PHOTO" ? folder.path("photos/a.png") : $0.replacingOccurrences(of: "OUT", with: folder.path("out"))
        }
        let result = try TimedProcess.run(arguments, seconds: 20)
        #expect(!result.timedOut, "\(command[0]) hung on a FIFO beside its output for \(result.seconds) s")
        #expect(result.status == 0, "\(command[0]): \(result.stderr)")
        let output = try #require(arguments.last)
        #expect(FileManager.default.fileExists(atPath: output), "\(command[0]) wrote \(output)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO is left as it was")
    }

    @Test func importGoesOnPastAFIFOInTheFolder() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        _ = try Self.fifo(in: folder, named: "photos/b.png")
        let result = try TimedProcess.run(["import", "--db", folder.path("c.sqlite"), "--prep", "fashion-mnist",
                                           folder.path("photos")], seconds: 30)
        #expect(!result.timedOut, "import hung on a FIFO")
        #expect(result.status == 0 || result.status == 2, "\(result.stderr)")
        #expect(result.stdout.contains("1 new image") || result.stderr.contains("1 new image")
                || result.stdout.contains("Imported 1"), "\(result.stdout)\(result.stderr)")
    }

    /// A file under /proc says it holds 0 bytes and holds text: read by its stat size, it was
    /// "empty file (0 bytes)" to import, classify and prep, a truncated model to `model info`,
    /// and a map without a line to `model evaluate`. Read to its end, each says what it is.
    @Test func aFileWhoseSizeSaysZeroIsReadToItsEnd() throws {
        let file = "/proc/version"
        var status = stat()
        try #require(stat(file, &status) == 0 && status.st_size == 0, "\(file) gives its size as 0 here")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let notAnImage = "not an image: content is not JPEG, PNG, HEIF, AVIF or WebP"
        let imported = try WardrobeProcess.run(["import", "--db", folder.path("c.sqlite"), file])
        #expect(imported.status == 2 && imported.stderr == "error: \(file): \(notAnImage)\n", "\(imported.stderr)")
        for command in [["classify", "--no-save"], ["prep"]] {
            let result = try WardrobeProcess.run(command + [file])
            #expect(result.status != 0 && result.stderr == "error: \(file): \(notAnImage)\n", "\(command): \(result.stderr)")
        }
        let info = try WardrobeProcess.run(["model", "info", file])
        #expect(info.status == 1 && info.stderr.contains("model header is invalid"), "\(info.stderr)")
        try FileManager.default.createDirectory(atPath: folder.path("photos/coat"), withIntermediateDirectories: true)
        let map = try WardrobeProcess.run(["model", "evaluate", "--images", folder.path("photos"), "--map", file])
        #expect(map.status == 1 && map.stderr.hasPrefix("error: map \(file) line 1: "), "\(map.stderr)")
    }

    /// /proc/kmsg says 0 bytes and blocks a read until the kernel logs something: read to its
    /// end, it must not be waited on (nothing is there yet: an empty file).
    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/kmsg"), "/proc/kmsg is readable (as root)"))
    func aFileUnderProcThatWouldBlockIsNotWaitedOn() throws {
        let result = try TimedProcess.run(["classify", "--no-save", "/proc/kmsg"], seconds: 20)
        #expect(!result.timedOut, "classify waited on /proc/kmsg for \(result.seconds) s")
        #expect(result.status == 2 && result.stderr.hasPrefix("error: /proc/kmsg: "), "\(result.stderr)")
    }
}
