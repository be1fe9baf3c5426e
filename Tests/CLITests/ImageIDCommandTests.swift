import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// An image's id, once given, names no other image: after `forget` of the image with the
/// highest id, the next photo imported takes a new id, in the catalogue itself, in a `copy` of
/// it (between every pair of engines) and in a `backup` of it. An id kept in a file (`list
/// --ids`), typed (`label coat 2`) or bookmarked (serve's /image/2) never reaches another
/// photo. On an SQLite file and on a real PostgreSQL server.
@Suite struct ImageIDCommandTests {
    @discardableResult
    static func run(_ arguments: [String], _ db: String? = nil) throws -> WardrobeProcess.Result {
        let result = try WardrobeProcess.run(arguments + (db.map { ["--db", $0] } ?? []))
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// The catalogue's image ids, as `list --ids` prints them, in order.
    static func ids(_ db: String) throws -> [Int] {
        try run(["list", "--ids"], db).stdout.split(separator: "\n").compactMap { Int($0) }.sorted()
    }

    static func location(_ engine: CommandEngine, _ name: String, in folder: PhotoFolder) throws -> String {
        engine == .postgresql ? try TestPostgres.shared().newDatabase(name) : folder.path(name + ".sqlite")
    }

    /// A catalogue that gave ids 1 and 2 and forgot image 2, the one with the highest id.
    static func forgettingItsHighestImage(_ engine: CommandEngine, in folder: PhotoFolder) throws -> String {
        let db = try location(engine, "forgetting", in: folder)
        try folder.writePhotos(2, width: 64, height: 48, firstSeed: 1, to: "first")
        try run(["import", "--quiet", "--jobs", "1", folder.path("first")], db)
        try #require(try ids(db) == [1, 2])
        try run(["forget", "--yes", "2"], db)
        return db
    }

    /// Imports one new photo (of `seed`) into `db`: its id.
    static func importNewPhoto(into db: String, seed: Int, in folder: PhotoFolder) throws -> Int? {
        let before = Set(try ids(db))
        try folder.writePhotos(1, width: 64, height: 48, firstSeed: seed, to: "new-\(seed)")
        try run(["import", "--quiet", folder.path("new-\(seed)")], db)
        return try ids(db).first { !before.contains($0) }
    }

    @Test(arguments: CommandEngine.all)
    func aForgottenImagesIDIsGivenToNoNewPhoto(engine: CommandEngine) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.forgettingItsHighestImage(engine, in: folder)
        #expect(try Self.importNewPhoto(into: db, seed: 10, in: folder) == 3)
        let show = try WardrobeProcess.run(["show", "2", "--db", db])
        #expect(show.status != 0 && show.stdout.isEmpty, "id 2 names no image: \(show.stdout)")
        // Every image forgotten, the numbering still goes on past them.
        try Self.run(["forget", "--yes", "1", "3"], db)
        #expect(try Self.importNewPhoto(into: db, seed: 11, in: folder) == 4)
    }

    @Test(arguments: CommandEngine.all, CommandEngine.all)
    func aCopyGivesNoForgottenIDAgain(from: CommandEngine, to: CommandEngine) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let source = try Self.forgettingItsHighestImage(from, in: folder)
        let destination = try Self.location(to, "copy", in: folder)
        try Self.run(["copy", source, destination])
        #expect(try Self.importNewPhoto(into: destination, seed: 10, in: folder) == 3)
        // And a copy of the copy, which has image 3 now and forgets it too.
        try Self.run(["forget", "--yes", "3"], destination)
        let again = try Self.location(from, "again", in: folder)
        try Self.run(["copy", destination, again])
        #expect(try Self.importNewPhoto(into: again, seed: 11, in: folder) == 4)
    }

    @Test func aBackupGivesNoForgottenIDAgain() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let source = try Self.forgettingItsHighestImage(.sqlite, in: folder)
        try Self.run(["backup", folder.path("backup.sqlite")], source)
        #expect(try Self.importNewPhoto(into: folder.path("backup.sqlite"), seed: 10, in: folder) == 3)
    }
}

extension ImageIDCommandTests {
    /// One past the largest integer there is is a real, which SQLite's id refuses: a retired id
    /// (or an image's) at that number, which only another program writes, stopped every import
    /// with SQLite's "datatype mismatch" and the INSERT's SQL. SQLite chooses the id there, as
    /// it did before ids were kept.
    @Test func anIDAtTheLargestNumberStopsNoImport() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.forgettingItsHighestImage(.sqlite, in: folder)
        try Catalogue(path: db).database.execute("UPDATE retired_image_ids SET highest = 9223372036854775807")
        let id = try Self.importNewPhoto(into: db, seed: 10, in: folder)
        #expect(id != nil && id != 1, "a new photo stored under a new id: \(String(describing: id))")
    }
}
