import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// A catalogue made by `wardrobe import`, then changed by another program the way `sqlite3`
/// can: past the schema's CHECKs (`PRAGMA ignore_check_constraints`, the never-updated trigger
/// dropped) or in `current_classifications`, which has none. A label of 99 or -1 indexed the
/// label list, a logits blob of one byte met a precondition, an infinite confidence met
/// `Int(_:)` and a time of `Int64.max` milliseconds overflowed: each ended the process, for `serve` every user's server. Each command now stops
/// with one line naming the catalogue and the row, and changes nothing. Run as processes, so
/// that such a crash is the command's, not the test runner's.
@Suite struct StrangeValueCatalogueTests {
    /// Three images imported, then `sql` run on the catalogue by a connection of its own.
    static func changedCatalogue(in folder: PhotoFolder, _ sql: String, name: String = "c.sqlite") throws -> String {
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path(name)
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--jobs", "1", "--quiet",
                                                folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let catalogue = try Catalogue(path: db)
        try catalogue.database.executeScript("""
            PRAGMA ignore_check_constraints = ON;
            DROP TRIGGER classifications_are_never_updated;
            \(sql)
            """)
        return db
    }

    static let changes: [(sql: String, commands: [[String]])] = [
        ("UPDATE current_classifications SET label = 99 WHERE image_id = 1;",
         [["list"], ["list", "--json"], ["export"], ["reclassify"]]),
        ("UPDATE classifications SET label = -1 WHERE image_id = 1;",
         [["show", "1"], ["history", "1"], ["export", "--all"]]),
        ("UPDATE classifications SET logits = x'00' WHERE image_id = 1;",
         [["show", "1"], ["history", "1", "--json"], ["export", "--all"]]),
        // An infinite first logit (float32 0x7F800000): `show --json` met NaN probabilities in JSONEncoder
        // ("EncodingError"), `export --all` wrote it as inf or null.
        ("UPDATE classifications SET logits = CAST(x'0000807F' || substr(logits, 5) AS BLOB) WHERE image_id = 2;",
         [["show", "2", "--json"], ["show", "2"], ["history", "2", "--json"], ["export", "--all"],
          ["export", "--all", "--format", "json"]]),
        ("UPDATE current_classifications SET confidence = 9e999 WHERE image_id = 1;",
         [["list", "--csv"], ["stats"], ["reclassify", "--dry-run"]]),
        ("UPDATE current_classifications SET corrected_label = 11 WHERE image_id = 1;",
         [["list"], ["export"]]),
        // A time in year 292 million: read as a date, it overflowed when written back as milliseconds.
        ("UPDATE images SET first_imported = 9223372036854775807 WHERE id = 1;",
         [["list", "--json"], ["list", "--csv"], ["show", "1", "--json"], ["export"]]),
        ("UPDATE classifications SET classified_at = -9223372036854775808 WHERE image_id = 1;",
         [["history", "1", "--json"], ["export", "--all"]]),
        // A share of 1e308 met `Int(_:)` as a percentage in list's and export's colours column.
        ("UPDATE images SET colours = 'red 1e308 50 60 40' WHERE id = 1;",
         [["list"], ["list", "--json"], ["list", "--csv"], ["export"], ["show", "1"], ["similar", "1"]]),
        // Shares that add up past the garment, more colours than are kept, L* past 100: shown as read.
        ("UPDATE images SET colours = 'red 0.9 50 60 40;blue 0.9 40 0 -40' WHERE id = 2;",
         [["show", "2", "--json"], ["export", "--format", "json"]]),
        ("UPDATE images SET colours = 'red 0.3 50 60 40;blue 0.3 40 0 -40;grey 0.2 50 0 0;white 0.2 95 0 0' WHERE id = 3;",
         [["show", "3"], ["list", "--colour", "red,blue,grey,white,navy,black,beige,pink,purple,multicolour"]]),
        ("UPDATE images SET colours = 'white 1 500 0 0' WHERE id = 3;", [["show", "3", "--json"], ["list", "--csv"]]),
    ]

    @Test(arguments: 0..<changes.count)
    func eachCommandSaysWhichRowAndChangesNothing(change: Int) throws {
        let (sql, commands) = Self.changes[change]
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, sql)
        let before = try #require(FileManager.default.contents(atPath: db))
        for command in commands {
            let result = try WardrobeProcess.run(command + ["--db", db])
            let said = "\(sql) \(command): status \(result.status), \(result.stderr)"
            #expect(result.status == 1, "\(said)")
            #expect(result.stderr.hasPrefix("error: \(db): the catalogue holds a value wardrobe never stores ("), "\(said)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(said)")
            #expect(FileManager.default.contents(atPath: db) == before, "nothing changed: \(said)")
        }
    }

    /// `check` read the catalogue through a read-only connection, on which SQLite's
    /// integrity_check skips the schema's CHECKs, and current_classifications has none: it
    /// said "no damage found" of every catalogue above.
    @Test func checkNamesEveryKindOfStrangeValue() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, Self.changes.map(\.sql).joined(separator: "\n"))
        let before = try #require(FileManager.default.contents(atPath: db))
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        for kind in ["classifications with a label outside 0 to 9: 1 row",
                     "classifications with logits of other than 40 bytes: 1 row",
                     "classifications with a logit that is not a finite number: 1 row",
                     "current classifications with a confidence outside 0 to 1: 1 row",
                     "current classifications with a person's label outside 0 to 10: 1 row",
                     "images with a time outside the years 1 to 9999: 1 row"] {
            #expect(check.stdout.contains(kind), "\(kind): \(check.stdout)")
        }
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
    }

    /// A kept tensor of another length (or stored as text), past the schema's CHECK, is named
    /// by `check`; `reclassify`, which would read it, refuses the catalogue in one line (its look
    /// for damage meets the CHECK) and changes nothing.
    @Test func aKeptTensorOfAnotherLengthIsNamedAndNothingChanges() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, """
            UPDATE prepared_tensors SET tensor = x'00' WHERE image_id = 1;
            UPDATE prepared_tensors SET tensor = 'not a tensor' WHERE image_id = 2;
            """)
        let before = try #require(FileManager.default.contents(atPath: db))
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1 && check.stdout.contains("prepared tensors of other than 3,136 bytes: 2 rows"),
                "\(check.stdout)\(check.stderr)")
        let again = try WardrobeProcess.run(["reclassify", "--prep", "fashion-mnist", "--jobs", "1", "--db", db])
        #expect(again.status == 1 && again.stderr.hasPrefix("error: \(db): ")
                    && again.stderr.split(separator: "\n").count == 1, "\(again.stdout)\(again.stderr)")
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
    }

    /// The times of failed files and of model adoptions, which `failures` and `model list`
    /// refuse, were not looked at: `check` said "no damage found" of a catalogue whose every
    /// such time was out of the years a date can hold, or not a number at all.
    @Test func checkLooksAtTheTimesOfFailuresAndAdoptions() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, "")
        try folder.write(Array("a shopping list, not a picture\n".utf8), to: "junk/notes.png")
        let failed = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("junk")])
        try #require(failed.status == 2, "one file failed: \(failed.stderr)")
        let model = FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"
        let adopted = try WardrobeProcess.run(["model", "use", "--db", db, model])
        try #require(adopted.status == 0, "\(adopted.stderr)")
        try Catalogue(path: db).database.executeScript("""
            UPDATE import_failures SET failed_at = 9223372036854775807;
            UPDATE failing_files SET last_failed = 'yesterday';
            UPDATE model_adoptions SET adopted_at = -9223372036854775808;
            """)
        let before = try #require(FileManager.default.contents(atPath: db))
        for reader in [["failures"], ["model", "list"]] {
            let refused = try WardrobeProcess.run(reader + ["--db", db])
            #expect(refused.status == 1 && refused.stderr.contains("value wardrobe never stores"),
                    "\(reader): \(refused.stderr)")
        }
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        for kind in ["model adoptions with a time outside the years 1 to 9999: 1 row",
                     "import failures with a time outside the years 1 to 9999: 1 row",
                     "failing files with a time outside the years 1 to 9999: 1 row"] {
            #expect(check.stdout.contains(kind), "\(kind): \(check.stdout)")
        }
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
    }

    /// Colours another program wrote that the readers refuse (items that are not "name share L a
    /// b", numbers out of their ranges, more than three, shares past the whole garment): `check`
    /// said "no damage found" of them, where `show`'s error sends a person to `check`.
    @Test func checkNamesColoursTheReadersRefuse() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, """
            UPDATE images SET colours = 'red;blue 1 2 3 4' WHERE id = 1;
            UPDATE images SET colours = 'red 0.9 50 60 40;blue 0.9 40 0 -40' WHERE id = 2;
            UPDATE images SET colours = 'red -0.5 50 60 400' WHERE id = 3;
            """)
        let before = try #require(FileManager.default.contents(atPath: db))
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1 && check.stdout.contains(
            "images with colours that are not up to three \"name share L a b\" in their ranges: 3 rows (changed by another program)"),
                "\(check.stdout)\(check.stderr)")
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
    }

    /// A colour act's time was not looked at: `check` said "no damage found" of a catalogue
    /// whose colour act `history` refuses.
    @Test func checkLooksAtTheTimesOfColourActs() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, "")
        #expect(try WardrobeProcess.run(["colour", "--db", db, "navy", "1"]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE colour_corrections SET corrected_at = 9223372036854775807")
        let before = try #require(FileManager.default.contents(atPath: db))
        let refused = try WardrobeProcess.run(["history", "--db", db, "1"])
        #expect(refused.status == 1 && refused.stderr.contains("value wardrobe never stores"), "\(refused.stderr)")
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1 && check.stdout.contains("colour corrections with a time outside the years 1 to 9999: 1 row"),
                "\(check.stdout)\(check.stderr)")
        #expect(FileManager.default.contents(atPath: db) == before, "nothing changed")
    }

    /// A capture time's offset from UTC past any clock's (import reads at most 14:59 hours from a
    /// file, as --since takes from a person), which the schema lets through up to a day: +24:00
    /// was shown as the offset of a time, and a JSON reader refuses that. Refused on either
    /// engine as every value wardrobe never stores is, and named by `check`.
    @Test(arguments: CommandEngine.all)
    func aCaptureTimeOffsetNoClockKeepsIsRefusedAndNamedByCheck(engine: CommandEngine) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<2 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let postgres = engine == .postgresql ? try TestPostgres.shared() : nil
        let db = try postgres?.newDatabase("offset") ?? folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--jobs", "1", "--quiet",
                                                folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let sql = """
            UPDATE images SET taken_at = 0, taken_offset = 1440 WHERE id = 1;
            UPDATE images SET taken_at = 0, taken_offset = -900 WHERE id = 2;
            """
        if let postgres {
            try postgres.psql(String(db.split(separator: "/").last!), sql)
        } else {
            try Catalogue(path: db).database.executeScript(sql)
        }
        for command in [["show", "1"], ["show", "2", "--json"], ["list"], ["list", "--json"], ["export"]] {
            let result = try WardrobeProcess.run(command + ["--db", db])
            let said = "\(command): status \(result.status), \(result.stdout)\(result.stderr)"
            #expect(result.status == 1 && !result.stdout.contains("24:00") && !result.stdout.contains("15:00"), "\(said)")
            #expect(result.stderr.contains("the catalogue holds a value wardrobe never stores ("), "\(said)")
            #expect(result.stderr.contains("image 1: a capture time's offset of 1440 minutes")
                        || result.stderr.contains("image 2: a capture time's offset of -900 minutes"), "\(said)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(said)")
        }
        let check = try WardrobeProcess.run(["check", "--db", db])
        #expect(check.status == 1 && check.stdout.contains("images with a capture time's offset past 14:59 hours: 2 rows"),
                "\(check.stdout)\(check.stderr)")
    }

    static let servedChanges: [(sql: String, pages: [String])] = [
        ("""
         UPDATE classifications SET confidence = 9e999 WHERE image_id = 1;
         UPDATE current_classifications SET confidence = 9e999 WHERE image_id = 1;
         """, ["/", "/image/1", "/stats"]),
        // The gallery adds up the kept counts of every label: two near Int64.max overflowed.
        ("UPDATE label_counts SET images = 9223372036854775807;", ["/", "/?label=Coat"]),
    ]

    /// Each page that meets the row is a 500 in the frame of every page, saying what is wrong
    /// and what to do without the catalogue's path; it was a plain-text "Internal error: ..."
    /// with no way back to the other pages. The catalogue's name holds what HTML must escape,
    /// and none of it reaches the page.
    @Test(arguments: 0..<servedChanges.count)
    func serveAnswersEachPageAndGoesOn(change: Int) throws {
        let (sql, pages) = Self.servedChanges[change]
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try Self.changedCatalogue(in: folder, sql, name: "<b>wardrobe's & more.sqlite")
        let server = try ServeProcess(db: db)
        defer { server.stop() }
        let port = server.port
        for target in pages {
            let (head, body) = try KeepAliveHTTP(port: port).answer(target)
            #expect(head.hasPrefix("HTTP/1.1 500"), "\(target): \(head)")
            #expect(head.contains("Content-Type: text/html; charset=utf-8"), "\(target): \(head)")
            #expect(body.contains("<nav><a href=\"/\">Gallery</a><a href=\"/review\">Review</a>"), "the frame: \(body)")
            let message = try #require(body.split(separator: "\n").first { $0.hasPrefix("<p class=\"notice\">") },
                                       "\(target): \(body)")
            // What is wrong and what to do, as the command line says it, without the catalogue's path.
            #expect(message.hasPrefix("<p class=\"notice\">Error: the catalogue holds a value wardrobe never stores ("),
                    "\(target): \(message)")
            #expect(message.hasSuffix("undo that change or restore your last backup.</p>"), "one line: \(message)")
            #expect(!message.contains("wardrobe-cli-") && !message.contains("more.sqlite"), "no path: \(message)")
            #expect(!body.contains("<b>"), "nothing of the catalogue's unescaped: \(body)")
            #expect(server.isRunning, "the server is still there after \(target)")
        }
        #expect(try KeepAliveHTTP(port: port).get("/image/2").contains("sure"), "and answers for the other images")
    }
}
