import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// SQLite finds a catalogue's write-ahead log and journal by name, beside the name it
/// opens. Three ways that went wrong, each with nothing said: a backup moved over a
/// catalogue whose last writer was killed had the old catalogue's log written into it; a
/// catalogue with two hard-linked names had two logs, and writers through the two lost each
/// other's work; a backup or copy named as the catalogue's journal was deleted as one.
@Suite struct CatalogueIdentityTests {
    /// A catalogue at `path` with one model registered, and its -wal as it stood before
    /// the connection that wrote it closed (what a killed writer leaves).
    private func catalogueWithLeftoverLog(at path: String) throws -> Data {
        let catalogue = try Catalogue(path: path)
        try catalogue.registerModel(Synthetic.model())
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(log.count > 32, "the write is in the log, not yet in the file")
        return log
    }

    @Test func aBackupMovedOverACatalogueBesideItsOldLogIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite"), backup = directory.path("backup.sqlite")
        _ = try Catalogue(path: path).backup(to: backup)
        let log = try catalogueWithLeftoverLog(at: path)
        // Restored as the help says: moved over the catalogue; the killed writer's log stays.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        try log.write(to: URL(fileURLWithPath: path + "-wal"))
        let restored = try Data(contentsOf: URL(fileURLWithPath: backup))

        for mode in [Database.Mode.readOnly, .readWrite, .create] {
            #expect(throws: CatalogueError.foreignWriteAheadLog(path: path)) { try Catalogue(path: path, mode: mode) }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == restored, "the backup as it was restored")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == log, "the old log kept for whoever wants it")
        #expect(CatalogueError.foreignWriteAheadLog(path: path).description.contains("Move \(path)-wal and \(path)-shm out of the way"))

        try FileManager.default.removeItem(atPath: path + "-wal")
        #expect(try Catalogue(path: path, mode: .readWrite).models().isEmpty, "the backup's own contents, no model")
    }

    /// Through a symbolic link SQLite keeps the log beside the file the link leads to, and
    /// that is where the look goes: it looked beside the link, and the old log was written in.
    @Test func aBackupReachedThroughALinkBesideItsOldLogIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite"), backup = directory.path("backup.sqlite")
        let link = directory.path("link.sqlite")
        _ = try Catalogue(path: path).backup(to: backup)
        let log = try catalogueWithLeftoverLog(at: path)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        try log.write(to: URL(fileURLWithPath: path + "-wal"))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: CatalogueError.foreignWriteAheadLog(path: link)) { try Catalogue(path: link, mode: .readWrite) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: backup)))
    }

    /// A side file with something in it where no catalogue is yet: making the catalogue
    /// deleted it as a log of nothing (a backup once named `new.sqlite-wal` went so).
    @Test func aCatalogueIsNotMadeOverALeftoverLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("new.sqlite")
        try Data("a backup given the name".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        #expect(throws: CatalogueError.leftoverSideFile(path: path, file: path + "-wal")) { try Catalogue(path: path) }
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path))
    }

    @Test func aCatalogueInWALModeKeepsReadingItsOwnLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        let writer = try Catalogue(path: path)
        try writer.registerModel(Synthetic.model())
        // A reader beside a writer that has not checkpointed: the log is the catalogue's.
        #expect(try Catalogue(path: path, mode: .readOnly).models().count == 1)
        _ = writer
    }

    @Test func aCatalogueWithTwoNamesIsNotWrittenThroughEither() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("one.sqlite"), other = directory.path("two.sqlite")
        _ = try Catalogue(path: path)
        try #require(link(path, other) == 0)
        for name in [path, other] {
            #expect(throws: CatalogueError.severalNames(path: name, names: 2)) { try Catalogue(path: name, mode: .readWrite) }
        }
        #expect(try Catalogue(path: other, mode: .readOnly).models().isEmpty, "reading through either name goes on")
        try FileManager.default.removeItem(atPath: other)
        #expect(try Catalogue(path: path, mode: .readWrite).models().isEmpty, "one name again: written as before")
    }

    @Test(arguments: ["-journal", "-wal", "-shm"])
    func neitherABackupNorACatalogueTakesTheNameOfAnotherCataloguesFile(suffix: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        let catalogue = try Catalogue(path: path)
        let companion = path + suffix
        try? FileManager.default.removeItem(atPath: companion)
        // Named after a catalogue that is not there yet, too: the first one made there deleted it.
        let future = directory.path("future.sqlite") + suffix
        #expect(throws: CatalogueError.companionName(path: future, database: directory.path("future.sqlite"))) {
            try Catalogue(path: future, mode: .create)
        }
        #expect(throws: CatalogueError.self) { try catalogue.backup(to: future) }
        #expect(!FileManager.default.fileExists(atPath: future))
        #expect(throws: CatalogueError.companionName(path: companion, database: path)) {
            try Catalogue(path: companion, mode: .create)
        }
        #expect(throws: CatalogueError.self) { try catalogue.backup(to: companion) }
        if suffix == "-journal" { #expect(!FileManager.default.fileExists(atPath: companion), "nothing made there") }
    }
}
