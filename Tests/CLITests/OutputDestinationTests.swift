import Foundation
import Imaging
import Testing

/// Where output goes: `export --output PATH` never replaces a device, a link or a FIFO;
/// a failed or short write to stdout or a file is exit 1 with one error line, and a
/// reader that went away (`| head`) ends the command quietly.
@Suite(.serialized) struct OutputDestinationTests {
    static func catalogue(in folder: PhotoFolder) throws -> String {
        let db = folder.path("c.sqlite")
        try HostileCatalogue.make(at: db, count: 40, modelName: "clothing")
        return db
    }

    static func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    /// An output with a long name, as long as the system allows less the hidden name's marks:
    /// the file is written beside it first under a hidden name holding its whole name and more
    /// (`.NAME.wardrobe-unfinished+...`), which passed the 255 bytes a name may have, so export,
    /// prep and backup refused a name `touch` takes ('File name too long'). The hidden name now
    /// keeps what of NAME fits.
    @Test(arguments: [["export", "--db", "DB", "--output", "OUT.csv"], ["prep", "PHOTO", "--out", "OUT.png"],
                      ["backup", "--db", "DB", "OUT.sqlite"]])
    func anOutputWithALongNameIsWritten(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let long = folder.path(String(repeating: "x", count: 240))
        let arguments = command.map { $0 == "DB" ? db : $0 == "PHOTO" ? folder.path("photos/a.png")
                                      : $0.replacingOccurrences(of: "OUT", with: long) }
        let output = try #require(arguments.last)
        let result = try WardrobeProcess.run(arguments)
        #expect(result.status == 0, "\(command[0]): \(result.stderr)")
        #expect(Self.fileType(output) == S_IFREG, "\(command[0]) wrote its output")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path("")).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no hidden file is left: \(left)")
    }

    @Test func aNewPathAndARegularFileGetTheWholeExport() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let expected = try WardrobeProcess.run(["export", "--db", db, "--format", "json"]).stdout
        let target = folder.path("out.json")
        let fresh = try WardrobeProcess.run(["export", "--db", db, "--format", "json", "--output", target])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == expected)
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o600)
        let again = try WardrobeProcess.run(["export", "--db", db, "--format", "json", "--output", target])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == expected)
        var status = stat()
        stat(target, &status)
        #expect(status.st_mode & 0o777 == 0o600, "the replaced file keeps its permissions")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).filter { $0.hasPrefix(".out") }.isEmpty,
                "no temporary file is left behind")
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsWritten() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let target = folder.path("real.csv"), link = folder.path("link.csv")
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try WardrobeProcess.run(["export", "--db", db, "--output", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("id,"))
    }

    @Test func aFIFOIsWrittenAsAStreamAndOneWithoutAReaderIsRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let fifo = folder.path("pipe")
        try #require(mkfifo(fifo, 0o644) == 0)
        let alone = try TimedProcess.run(["export", "--db", db, "--output", fifo], seconds: 20)
        #expect(!alone.timedOut)
        #expect(alone.status == 1 && alone.stderr.contains("nobody reads"), "\(alone.stderr)")
        #expect(Self.fileType(fifo) == S_IFIFO)

        let read = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received = Data()
        Thread.detachNewThread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = handle.readDataToEndOfFile() }
            read.signal()
        }
        usleep(200_000)   // the reader opens the FIFO first
        let streamed = try TimedProcess.run(["export", "--db", db, "--output", fifo], seconds: 20)
        read.wait()
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("id,"))
        #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO is still a FIFO")
    }

    /// `--output /dev/stdout` with stdout a pipe: a link to something that has no path
    /// (/proc/self/fd/1 reads "pipe:[...]"), written through as a stream, and still a link.
    @Test func aLinkToAPipeIsWrittenThroughAsAStream() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let expected = try WardrobeProcess.run(["export", "--db", db]).stdout
        for link in ["/proc/self/fd/1", "/dev/stdout"] {
            let result = try WardrobeProcess.run(["export", "--db", db, "--output", link])
            #expect(result.status == 0, "\(link): \(result.stderr)")
            #expect(result.stdout == expected, "\(link)")
        }
        #expect(Self.fileType("/dev/stdout") == S_IFLNK, "/dev/stdout is still a link")

        // Into a socket: not a stream OutputFile writes, so refused (a file would replace the link).
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let peer = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let socket = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        defer { _ = peer }
        let refused = try TimedProcess.run(["export", "--db", db, "--output", "/proc/self/fd/1"], seconds: 20, stdout: socket)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("is a symbolic link to something without a path (a socket)\n"), "\(refused.stderr)")
    }

    /// A mistyped folder is an error, not a new folder: `export --output` and `backup` alike.
    @Test(arguments: [["export", "--output"], ["backup"]])
    func aNewFileInAMissingFolderIsRefusedAndTheFolderNotMade(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let target = folder.path("backups/2026/copy.sqlite")
        let result = try WardrobeProcess.run([command[0], "--db", db] + command.dropFirst() + [target])
        #expect(result.status == 1, "\(command): status \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: \(target): ")
                && lines[0].hasSuffix("the folder \(folder.path("backups/2026")) does not exist"), "\(command): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("backups")), "\(command) made the folder")
        #expect(result.stdout.isEmpty)
    }

    /// A folder that takes no new file, where the hidden file each output is first written
    /// under cannot be made: /proc/self holds files but makes none (the system says 'No such
    /// file or directory' of the hidden name, which named nothing the person gave). One line
    /// naming the output and the true reason, said of its folder; nothing is written.
    @Test(arguments: [["export", "--db", "DB", "--output", "/proc/self/status"],
                      ["export", "--db", "DB", "--output", "/proc/self/new.csv"],
                      ["prep", "PHOTO", "--out", "/proc/self/new.png"],
                      ["backup", "--db", "DB", "/proc/self/new.sqlite"]])
    func anOutputInAFolderThatTakesNoNewFileSaysSo(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let arguments = command.map { $0 == "DB" ? db : $0 == "PHOTO" ? folder.path("photos/a.png") : $0 }
        let output = try #require(arguments.last)
        let result = try WardrobeProcess.run(arguments)
        #expect(result.status == 1, "\(command[0]): status \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: \(output): ")
                && lines[0].hasSuffix("the folder /proc/self does not accept new files"), "\(command[0]): \(result.stderr)")
        #expect(!result.stderr.contains("No such file"), "\(command[0]): \(result.stderr)")
    }

    /// An output never replaces a file the command reads, under any name (a link, a hard
    /// link): each of these used to put the output where the catalogue, the photo, the
    /// parent model or a training photo had been. A name SQLite gives a file of the catalogue's
    /// that is not there yet counts too: an export written as the catalogue's `-journal` made
    /// every read of the catalogue fail, and the next write deleted it as a journal.
    @Test(arguments: ["export onto the catalogue", "export through a link", "export onto the catalogue's journal",
                      "prep thumbnail onto the photo",
                      "prep tensor onto a hard link of the photo", "prep onto the catalogue",
                      "train onto the parent", "train onto a training photo"])
    func noOutputReplacesAFileTheCommandReads(attack: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "photos/coats/a.png")
        try "coats: Coat\n".write(toFile: folder.path("photos.map"), atomically: false, encoding: .utf8)
        let photo = folder.path("photos/coats/a.png"), model = folder.path("parent.aimodel")
        try FileManager.default.copyItem(atPath: FileManager.default.currentDirectoryPath + "/Models/fashion-mnist-only.aimodel",
                                         toPath: model)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.sqlite"), withDestinationPath: db)
        try FileManager.default.linkItem(atPath: photo, toPath: folder.path("hard.png"))
        let train = ["model", "train", "--limit", "20", "--epochs", "1"]
        let (arguments, victim): ([String], String) = switch attack {
        case "export onto the catalogue": (["export", "--db", db, "--output", db], db)
        case "export through a link": (["export", "--db", db, "--output", folder.path("link.sqlite")], db)
        case "export onto the catalogue's journal": (["export", "--db", db, "--output", db + "-journal"], db)
        case "prep thumbnail onto the photo": (["prep", photo, "--thumbnail", photo], photo)
        case "prep tensor onto a hard link of the photo": (["prep", photo, "--out", folder.path("hard.png")], photo)
        case "prep onto the catalogue": (["prep", "--db", db, photo, "--out", db], db)
        case "train onto the parent": (train + ["--from", model, "--out", model], model)
        default: (train + ["--photos", folder.path("photos"), "--map", folder.path("photos.map"), "--out", photo], photo)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: victim))
        let result = try WardrobeProcess.run(arguments)
        #expect(result.status == 1, "\(attack): status \(result.status) \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasSuffix("which this command reads; write the output elsewhere"),
                "\(attack): \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == before, "\(attack) changed \(victim)")
        #expect(!FileManager.default.fileExists(atPath: db + "-journal"), "\(attack): nothing written as the journal")
    }

    @Test func aDeviceIsNeverReplaced() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        // A node of our own for /dev/full (1, 7) when root; /dev/full itself otherwise.
        var device = "/dev/full"
        // makedev(1, 7) is a macro Swift cannot call: major 1 in bits 8..., minor 7 below.
        if getuid() == 0, mknod(folder.path("full"), S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 { device = folder.path("full") }
        let result = try WardrobeProcess.run(["export", "--db", db, "--output", device])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(Self.fileType(device) == S_IFCHR, "the device node is still a device")
        let directory = try WardrobeProcess.run(["export", "--db", db, "--output", folder.path("")])
        #expect(directory.status == 1 && directory.stderr.contains("is a directory"), "\(directory.stderr)")
    }

    @Test(arguments: [["export", "--format", "json", "--all"], ["export"], ["list", "--csv"], ["list", "--json"],
                      ["list"], ["stats"], ["history", "1"], ["show", "1"], ["--help"], ["import", "--help"],
                      ["model", "train", "--help"]])
    func aFailedWriteToStdoutIsExitOne(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try TimedProcess.run(command + ["--db", db], seconds: 30, stdout: full)
        #expect(result.status == 1, "\(command): status \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(command): one line: \(result.stderr)")
    }

    @Test func aClosedPipeEndsTheCommandQuietly() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.catalogue(in: folder)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])   // the reader is gone before anything is written, as after `| head -0`
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let result = try TimedProcess.run(["export", "--db", db, "--format", "json", "--all"], seconds: 30, stdout: writeEnd)
        #expect(result.status != 0, "the export did not finish")
        #expect(result.stderr.isEmpty, "quiet: \(result.stderr)")
    }
}
