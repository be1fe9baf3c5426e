import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Catalogues made before schema step 30, which keeps the highest id of a forgotten image
/// (`retired_image_ids`), each made with step 29's own schema and having forgotten its image
/// with the highest id. An SQLite file cannot know what it forgot before: it goes on from
/// the highest id present, and from then on gives no id twice. A PostgreSQL catalogue's
/// identity knows the last number it gave, and a copy of it carries that.
@Suite struct ImageIDStepTests {
    /// Adds image `number` (of `Synthetic`) to `store` in a run of its own: its id.
    static func add(_ number: Int, to store: any CatalogueStore) throws -> ImageID {
        let run = try store.openRun(command: "import", model: try store.registerModel(Synthetic.model(1)),
                                    recipe: Recipe(name: "photo", version: 4))
        var id: ImageID?
        try store.writing(run: run) { batch in
            id = try batch.insertImages([Synthetic.image(number)], known: .isClassifiedAgain).first?.image
            return RunCounts(seen: 1, imported: 1, classified: 1, skipped: 0, failed: 0)
        }
        try store.closeRun(run, counts: RunCounts(seen: 1, imported: 1, classified: 1, skipped: 0, failed: 0))
        return try #require(id)
    }

    /// Three images at step 29, the third deleted as step 29's `forget` left it: no row of it.
    static let threeImagesTheLastForgotten = """
        INSERT INTO images (sha256, byte_size, width, height, format, first_imported) VALUES
            (\(hex(1)), 1, 1, 1, 'png', 1700000000000), (\(hex(2)), 1, 1, 1, 'png', 1700000000000),
            (\(hex(3)), 1, 1, 1, 'png', 1700000000000);
        DELETE FROM images WHERE id = 3;
        """

    static func hex(_ byte: Int) -> String {
        "x'" + String(repeating: String(format: "%02x", byte), count: 32) + "'"
    }

    @Test func aFileThatForgotItsHighestImageBeforeTheStepGoesOnFromTheHighestPresent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("step29.sqlite")
        do {
            let db = try Database(path: path)
            try Migrator.embedded.migrate(db, upTo: 29)
            try db.executeScript(Self.threeImagesTheLastForgotten)
        }
        let catalogue = try Catalogue(path: path)
        #expect(try catalogue.integrityCheck() == ["ok"])
        // What it forgot before is not known: the numbering goes on from the highest id present.
        #expect(try Self.add(10, to: catalogue) == ImageID(3))
        // From then on no id is given twice.
        _ = try catalogue.forget([ImageID(3)])
        #expect(try Self.add(11, to: catalogue) == ImageID(4))
        #expect(try catalogue.stats().images == 3)
    }

    @Test(.enabled(if: TestPostgres.isInstalled,
                   "PostgreSQL is not installed (make deps installs it): the tests against PostgreSQL are skipped"))
    func aServerCatalogueThatForgotItsHighestImageBeforeTheStepKeepsItsIDInACopy() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("step29")
        // Steps 12 to 29 of migrations/postgresql, recorded as the migrator records them.
        let folder = MigrationTests.packageRoot.appendingPathComponent("migrations/postgresql")
        var script = "CREATE TABLE wardrobe_migrations (version bigint PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL);\n"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".sql") }).sorted() {
            guard let version = Int(file.prefix(4)), version <= 29 else { continue }
            script += try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            script += "\n;INSERT INTO wardrobe_migrations VALUES (\(version), '\(file.dropFirst(5).dropLast(4))', 0);\n"
        }
        let sql = Self.threeImagesTheLastForgotten.replacingOccurrences(of: "x'", with: "'\\x")
        try postgres.psql(String(url.split(separator: "/").last!), script + sql)
        let server = try CatalogueStorage.open(url, access: .create)
        #expect(try server.stats().images == 2)
        // Its identity knew id 3 was given; a copy into a file now knows it too.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try CatalogueStorage.open(directory.path("copy.sqlite"), access: .create)
        _ = try CatalogueCopier.copy(from: server, to: file) { CatalogueCopierTests.WholeEncoding() }
        #expect(try Self.add(10, to: file) == ImageID(4))
        #expect(try Self.add(10, to: server) == ImageID(4))
    }
}
