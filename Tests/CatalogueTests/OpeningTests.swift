import CSQLite
import Catalogue
import Foundation
import CatalogueFixtures
import Testing

/// Opening a catalogue: what is created, and what is refused with which message.
@Suite struct OpeningTests {
    @Test func openingCreatesTheFileAndItsFolders() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("a/b/c/wardrobe.sqlite")
        let catalogue = try Catalogue(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try catalogue.version == Migrator.embedded.latestVersion)
        #expect(try catalogue.database.rows("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
        #expect(try catalogue.database.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try catalogue.database.scalarInt("PRAGMA synchronous") == 1)  // NORMAL
        #expect(try catalogue.database.scalarInt("PRAGMA application_id") == Catalogue.applicationID)
        #expect(try catalogue.integrityCheck() == ["ok"])
    }

    @Test func reopeningKeepsTheData() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        do {
            let catalogue = try Catalogue(path: path)
            try catalogue.registerModel(try NewModel(name: "m", version: "1", sha256: SHA256Digest(hex: String(repeating: "ab", count: 32)),
                                                     labels: ["a"], parameterCount: 3))
        }
        let again = try Catalogue(path: path, mode: .readWrite)
        #expect(try again.models().map(\.name) == ["m"])
        let reader = try Catalogue(path: path, mode: .readOnly)
        #expect(try reader.models().count == 1)
    }

    @Test func aMissingFileIsReportedWhenNotCreating() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("nothing.sqlite")
        for mode in [Database.Mode.readWrite, .readOnly] {
            #expect(throws: CatalogueError.fileNotFound(path: path)) { try Catalogue(path: path, mode: mode) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(CatalogueError.fileNotFound(path: path).description == "\(path): no catalogue there yet; import photos first ('wardrobe import FOLDER'), or name another catalogue with --db")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("photo.jpg")
        let junk = Data((0..<4096).map { UInt8($0 % 256) })
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: CatalogueError.notADatabase(path: path)) { try Catalogue(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
        // A folder is not a catalogue either.
        #expect(throws: CatalogueError.notAFile(path: directory.url.path, kind: "a directory")) {
            try Catalogue(path: directory.url.path)
        }
    }

    /// A FIFO would keep SQLite's open waiting for a writer forever, and a device reads as an
    /// empty database (version 0, "to be upgraded"): both are refused by what they are, in every
    /// mode, before SQLite sees them, and left as they were.
    @Test func aFIFOOrADeviceIsRefusedForWhatItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path("catalogue.sqlite")
        try #require(mkfifo(fifo, 0o644) == 0)
        for mode in [Database.Mode.create, .readWrite, .readOnly] {
            #expect(throws: CatalogueError.notAFile(path: fifo, kind: "a FIFO")) { try Catalogue(path: fifo, mode: mode) }
            #expect(throws: CatalogueError.notAFile(path: "/dev/null", kind: "a character device")) {
                try Catalogue(path: "/dev/null", mode: mode)
            }
            // Regular files of size 0 that SQLite failed to read with "disk I/O error".
            for kernels in ["/proc/self/mem", "/proc/self/status"] {
                #expect(throws: CatalogueError.notAFile(path: kernels, kind: "a file the kernel makes (/proc, /sys)")) {
                    try Catalogue(path: kernels, mode: mode)
                }
            }
        }
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["catalogue.sqlite"],
                "no -wal or -shm beside it")
        #expect(CatalogueError.notAFile(path: fifo, kind: "a FIFO").description
                == "\(fifo): not a wardrobe catalogue: a FIFO, where a catalogue is a regular file")
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("other.sqlite")
        do {
            let other = try Database(path: path)
            try other.executeScript("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CatalogueError.foreignDatabase(path: path, detail: "tables invoices")) { try Catalogue(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let tagged = directory.path("tagged.sqlite")
        do {
            let other = try Database(path: tagged)
            try other.executeScript("PRAGMA application_id = 42")
        }
        #expect(throws: CatalogueError.foreignDatabase(path: tagged, detail: "application id 0x0000002a")) {
            try Catalogue(path: tagged)
        }
    }

    @Test func aNewerCatalogueIsRefusedWithNothingWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("future.sqlite")
        let latest = Migrator.embedded.latestVersion
        do {
            let catalogue = try Catalogue(path: path)
            try catalogue.database.executeScript("PRAGMA user_version = \(latest + 1)")
            try catalogue.database.executeScript("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = CatalogueError.newerCatalogue(path: path, version: latest + 1, supported: latest)
        #expect(throws: error) { try Catalogue(path: path) }
        #expect(throws: error) { try Catalogue(path: path, mode: .readOnly) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(error.description.contains("newer wardrobe"))
    }

    /// A version below 0 was taken for an old catalogue: readers said to upgrade it by
    /// writing, and writing failed making tables that were there ("stays at version 0").
    @Test func aVersionBelowZeroIsDamageNotAnUpgrade() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("negative.sqlite")
        do {
            let catalogue = try Catalogue(path: path)
            try catalogue.database.executeScript("PRAGMA user_version = -5")
            try catalogue.database.executeScript("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = CatalogueError.damaged(path: path, detail: "its schema version is -5, which no wardrobe writes")
        #expect(throws: error) { try Catalogue(path: path, mode: .readOnly) }
        #expect(throws: error) { try Catalogue(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFolderThatCannotBeMadeIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("plain.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let path = file + "/sub/wardrobe.sqlite"
        #expect(throws: CatalogueError.cannotCreate(path: path, reason: "cannot make folder \(file)/sub: \(file) is not a folder")) {
            try Catalogue(path: path)
        }
    }

    @Test func anOldCatalogueOpenedReadOnlyAsksForAnUpgrade() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("old.sqlite")
        do {
            let db = try Database(path: path)
            try Migrator.embedded.migrate(db, upTo: 1)
        }
        #expect(throws: CatalogueError.needsMigration(path: path, version: 1, supported: Migrator.embedded.latestVersion)) {
            try Catalogue(path: path, mode: .readOnly)
        }
        #expect(try Catalogue(path: path).version == Migrator.embedded.latestVersion)
    }

    @Test func writingToACatalogueOpenedReadOnlyIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        _ = try Catalogue(path: path)
        let reader = try Catalogue(path: path, mode: .readOnly)
        #expect(throws: CatalogueError.readOnly(path: path)) { try reader.registerModel(Synthetic.model()) }
    }

    @Test(.disabled(if: geteuid() == 0, "root writes read-only files; the check cannot be seen as root"))
    func aReadOnlyFileIsRefusedForWriting() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        _ = try Catalogue(path: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect(throws: CatalogueError.readOnly(path: path)) { try Catalogue(path: path) }
    }
}
