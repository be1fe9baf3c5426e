import Catalogue
import Foundation
import Imaging
import Testing

/// A damaged catalogue (a page zeroed, as a failing disk leaves it) is neither read as
/// if whole nor written to: every command stops at the first damaged page it meets and
/// says how to recover; `wardrobe check` says what is damaged.
@Suite(.serialized) struct DamagedCatalogueTests {
    /// A catalogue of 40 images whose `images` table root page is zeroed.
    static func damagedCatalogue(in folder: PhotoFolder) throws -> String {
        let db = folder.path("c.sqlite")
        try HostileCatalogue.make(at: db, count: 40, modelName: "clothing")
        let (root, pageSize): (Int64, Int64) = try {
            // Read and write, so that closing it checkpoints and removes the WAL.
            let catalogue = try Catalogue(path: db)
            return (try catalogue.database.scalarInt("SELECT rootpage FROM sqlite_schema WHERE name = 'images'") ?? 0,
                    try catalogue.database.scalarInt("PRAGMA page_size") ?? 0)
        }()
        // Closed: WAL checkpointed into the file, which is all there is now.
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        let handle = try #require(FileHandle(forUpdatingAtPath: db))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(count: Int(pageSize)))
        try handle.close()
        return db
    }

    static func fileBytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test(arguments: [["stats"], ["list"], ["list", "--csv"], ["export"], ["export", "--all"], ["show", "1"]])
    func readingCommandsStopAndSayHowToRecover(command: [String]) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.damagedCatalogue(in: folder)
        let result = try WardrobeProcess.run(command + ["--db", db])
        #expect(result.status == 1, "\(command): \(result.status) \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("damaged") && result.stderr.contains("wardrobe check")
                && result.stderr.contains(".recover"), "\(command): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test func importWritesNothingToADamagedCatalogue() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.damagedCatalogue(in: folder)
        for index in 0..<5 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let before = Self.fileBytes(db)
        let result = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(Self.fileBytes(db) == before, "the file is unchanged")
        let wal = Self.fileBytes(db + "-wal")
        #expect(wal.count <= 32, "nothing was written to the WAL (\(wal.count) bytes)")
    }

    /// A bit flipped in the header's magic makes SQLite call the file no database at all; the
    /// catalogue's application id (bytes 68-71) says it is a damaged catalogue, and the person is
    /// told how to recover, while a file of another kind is still "not a wardrobe catalogue".
    @Test func aDamagedHeaderIsADamagedCatalogueNotAForeignFile() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try HostileCatalogue.make(at: db, count: 10, modelName: "clothing")
        _ = try Catalogue(path: db)  // opened for writing and closed: the WAL is checkpointed away
        var bytes = Self.fileBytes(db)
        bytes[0] ^= 0x20  // "SQLite" -> "sQLite"
        try bytes.write(to: URL(fileURLWithPath: db))
        for command in [["list"], ["stats"], ["import", "--prep", "fashion-mnist", folder.path("photos")]] {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/1.png")
            let result = try WardrobeProcess.run(command + ["--db", db])
            #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("damaged") && result.stderr.contains("wardrobe check"), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(Self.fileBytes(db) == bytes, "\(command) changed the file")
        }
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status != 0 && check.stdout.contains("header is damaged"), "\(check.stdout) \(check.stderr)")

        let other = folder.path("notes.sqlite")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: other))
        let foreign = try WardrobeProcess.run(["list", "--db", other])
        #expect(foreign.status == 1 && foreign.stderr.contains("not a wardrobe catalogue"), "\(foreign.stderr)")
    }

    /// A flipped bit in the text of a trigger's SQL ('NEW.p' where 'NEW.path' was) is no damage
    /// SQLite's checks see: they read pages, not what the SQL says. A writing command refuses the
    /// catalogue before it writes (it opened its run and then stopped at its first insert with
    /// "no such column: NEW.p"), and `check` names the trigger (it called such a file whole).
    @Test func aTriggerWhoseSQLChangedIsDamageToCheckAndToAWrite() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try HostileCatalogue.make(at: db, count: 10, modelName: "clothing")
        let trigger: String = try {
            let database = try Database(path: db)
            let name = try #require(try database.rows(
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%NEW.path%' ORDER BY name LIMIT 1"
            ) { $0.text(0) }.first)
            try database.executeScript("""
                PRAGMA writable_schema = ON;
                UPDATE sqlite_schema SET sql = replace(sql, 'NEW.path', 'NEW.p') WHERE name = '\(name)';
                PRAGMA writable_schema = OFF;
                """)
            return name
        }()
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/1.png")
        let before = Self.fileBytes(db)
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 1 && imported.stderr.contains("is damaged")
                && imported.stderr.contains("trigger \(trigger)"), "\(imported.stderr)")
        #expect(imported.stderr.split(separator: "\n").count == 1, "one line: \(imported.stderr)")
        #expect(Self.fileBytes(db) == before, "the file is unchanged")

        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("the SQL of trigger \(trigger) is not what wardrobe wrote"), "\(check.stdout)")
    }

    @Test func checkSaysWhatIsDamagedAndAWholeCatalogueIsFine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.damagedCatalogue(in: folder)
        let damaged = try WardrobeProcess.run(["check", "--db", db])
        #expect(damaged.status == 1, "\(damaged.stdout)\(damaged.stderr)")
        #expect(damaged.stdout.contains("damaged") && damaged.stdout.contains(".recover"), "\(damaged.stdout)")
        let whole = folder.path("whole.sqlite")
        try HostileCatalogue.make(at: whole, count: 10, modelName: "clothing")
        let fine = try WardrobeProcess.run(["check", "--db", whole, "--json"])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(fine.stdout.contains("\"ok\" : true"), "\(fine.stdout)")
    }
}
