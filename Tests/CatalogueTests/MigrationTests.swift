import Catalogue
import Foundation
import Testing

/// The schema's history: migrations/ is embedded whole, and a catalogue made
/// at any earlier version migrates with its data intact.
@Suite struct MigrationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theBinaryCarriesEveryFileOfTheMigrationsFolder() throws {
        let folder = MigrationTests.packageRoot.appendingPathComponent("migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let embedded = Migrator.embedded.migrations
        #expect(embedded.map { String(format: "%04d_%@.sql", $0.version, $0.name) } == files)
        #expect(embedded.map(\.version) == Array(1...embedded.count))
        for (migration, file) in zip(embedded, files) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(migration.sql == text, "\(file) differs from the binary's copy")
        }
    }

    /// Data written at version `version` with that version's own tables: two
    /// runs over three images, the second changing image 2's label.
    static func fill(_ db: Database, atVersion version: Int) throws {
        guard version >= 1 else { return }
        let logits = "x'" + String(repeating: "00", count: 40) + "'"
        let hash = { (n: Int) in "x'" + String(repeating: String(format: "%02x", n), count: 32) + "'" }
        try db.executeScript("""
            INSERT INTO models VALUES (1, 'clothing', '1', \(hash(0xaa)), '["a","b"]', 1000, 1700000000000);
            INSERT INTO runs (id, command, model_id, recipe_name, recipe_version, started_at, finished_at, seen, imported, classified, skipped, failed)
                VALUES (1, 'import', 1, 'fashion-mnist', 1, 1700000000000, 1700000001000, 3, 3, 3, 0, 0);
            INSERT INTO runs (id, command, model_id, recipe_name, recipe_version, started_at, finished_at, seen, imported, classified, skipped, failed)
                VALUES (2, 'reclassify', 1, 'photo', 2, 1700000002000, NULL, 0, 0, 0, 0, 0);
            INSERT INTO images (id, sha256, byte_size, width, height, format, thumbnail, first_imported) VALUES (1, \(hash(1)), 10, 28, 28, 'png', x'ffd8', 1700000000000);
            INSERT INTO images (id, sha256, byte_size, width, height, format, thumbnail, first_imported) VALUES (2, \(hash(2)), 20, 28, 28, 'jpeg', NULL, 1700000000000);
            INSERT INTO images (id, sha256, byte_size, width, height, format, thumbnail, first_imported) VALUES (3, \(hash(3)), 30, 28, 28, 'jpeg', NULL, 1700000000000);
            INSERT INTO image_paths (path, image_id, size, mtime_ns, last_seen) VALUES ('/p/1.png', 1, 10, 5, 1700000000000);
            INSERT INTO classifications VALUES (1, 1, 1, 1, 'fashion-mnist', 1, \(logits), 4, 0.5, 1700000000000);
            INSERT INTO classifications VALUES (2, 2, 1, 1, 'fashion-mnist', 1, \(logits), 4, 0.6, 1700000000000);
            INSERT INTO classifications VALUES (3, 3, 1, 1, 'fashion-mnist', 1, \(logits), 7, 0.7, 1700000000000);
            INSERT INTO classifications VALUES (4, 2, 2, 1, 'photo', 2, \(logits), 0, 0.9, 1700000002000);
            INSERT INTO import_failures (id, path, reason, run_id, failed_at) VALUES (1, '/p/junk.jpg', 'not an image', 1, 1700000000500);
            """)
        if version >= 10 {
            // From version 10 every closed run records how it ended, as the tool did.
            try db.executeScript("UPDATE runs SET outcome = 'finished' WHERE finished_at IS NOT NULL")
        }
        if version >= 9 {
            try db.executeScript("""
                INSERT INTO failing_files (path, reason, run_id, first_failed, last_failed, attempts)
                VALUES ('/p/junk.jpg', 'not an image', 1, 1700000000500, 1700000000500, 1);
                """)
        }
        // A person's label, in the corrections table as it stood then.
        if (3...5).contains(version) {
            try db.executeScript("INSERT INTO corrections VALUES (1, 3, 8, 1700000003000)")
        }
    }

    @Test(arguments: Array(0..<Migrator.embedded.latestVersion))
    func aCatalogueAtAnEarlierVersionMigratesWithItsData(version: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("v\(version).sqlite")
        do {
            let db = try Database(path: path)
            try Migrator.embedded.migrate(db, upTo: version)
            #expect(try Migrator.version(of: db) == version)
            try MigrationTests.fill(db, atVersion: version)
        }
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.version == Migrator.embedded.latestVersion)
        #expect(try catalogue.integrityCheck() == ["ok"])
        #expect(try catalogue.database.scalarInt("PRAGMA foreign_key_check") == nil)
        guard version >= 1 else {
            #expect(try catalogue.stats().images == 0)
            return
        }
        // Images from before colours were kept wait for `colours`, which measures those with a thumbnail.
        #expect(try catalogue.imagesAwaitingColours(after: nil, limit: 10) == [ImageID(1)])
        #expect(try catalogue.image(ImageID(1))?.colours == nil)
        let stats = try catalogue.stats()
        #expect(stats.images == 3 && stats.classifications == 4 && stats.failures == 1 && stats.runs == 2)
        #expect(try catalogue.failingFile("/p/junk.jpg")?.reason == "not an image")
        // The current label is each image's latest classification; a person's label outranks it.
        let current = try catalogue.currentClassifications(ClassificationQuery(order: .imageID))
        #expect(current.map(\.label) == [4, 0, 7])
        #expect(current.map(\.classification.rawValue) == [1, 4, 3])
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: 4)) == 1)
        let corrected = (3...5).contains(version)
        #expect(current.map(\.effectiveLabel) == [4, 0, corrected ? 8 : 7])
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: 8)) == (corrected ? 1 : 0))
        #expect(try catalogue.corrections(of: ImageID(3)).map(\.kind) == (corrected ? [.label] : []))
        #expect(try catalogue.run(RunID(1))?.finishedAt != nil)
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM runs WHERE outcome = 'finished'") == 1)
        #expect(try catalogue.paths(of: ImageID(1)).map(\.isMissing) == [false])
        // Paths from before machines had names became this machine's at the first opening for writing.
        #expect(try catalogue.paths(of: ImageID(1)).map(\.machine) == [Machine.current])
        #expect(try catalogue.knownPaths().count == catalogue.stats().paths)
        try CatalogueQueryTests.expectLabelCountsMatch(catalogue)
        #expect(try catalogue.history(of: ImageID(2)).map(\.classification.recipe) ==
            [Recipe(name: "fashion-mnist", version: 1), Recipe(name: "photo", version: 2)])
        #expect(try catalogue.knownPath("/p/1.png")?.image == ImageID(1))
        #expect(try catalogue.thumbnail(of: ImageID(1)) == [0xff, 0xd8])
        // And it keeps working: a new classification becomes current.
        try catalogue.addClassifications([(ImageID(3), NewClassification(logits: Array(repeating: 0, count: 10),
                                                                          label: 1, confidence: 0.1))], run: RunID(2))
        // (Unless a person labelled the image: then their label stays effective.)
        #expect(try catalogue.currentClassifications(ClassificationQuery(label: 1)).map(\.image) == (corrected ? [] : [ImageID(3)]))
        try CatalogueQueryTests.expectLabelCountsMatch(catalogue)
    }

    @Test func aFailingMigrationLeavesTheCatalogueAtTheVersionBefore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("broken.sqlite")
        let latest = Migrator.embedded.latestVersion
        _ = try Catalogue(path: path)
        let broken = Migrator(migrations: Migrator.embedded.migrations + [
            Migration(version: latest + 1, name: "broken",
                      sql: "CREATE TABLE half_done (x);\nINSERT INTO no_such_table VALUES (1);")
        ])
        do {
            _ = try Catalogue(path: path, migrator: broken)
            Issue.record("a broken migration was applied")
        } catch let CatalogueError.migrationFailed(version, name, failure) {
            #expect(version == latest + 1 && name == "broken")
            #expect(failure.message == "no such table: no_such_table")
        }
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.version == latest)
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'") == 0)
    }
}
