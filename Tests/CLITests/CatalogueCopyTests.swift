import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// `wardrobe copy` between engines, against a real server (`TestPostgres`): a
/// catalogue made by the command line goes SQLite -> PostgreSQL -> SQLite (and
/// SQLite -> SQLite) and comes back with the same rows in every table.
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): copy to and from PostgreSQL is skipped"))
struct CatalogueCopyTests {
    static let photos = PostgreSQLCommandTests.photos
    static let coat = PostgreSQLCommandTests.coat

    /// Every row of every table of an SQLite catalogue, each as SQLite quotes its values
    /// (blobs in full, as hex), the rows of each table sorted.
    static func rows(of path: String) throws -> [String: [String]] {
        let database = try Database(path: path, mode: .readOnly)
        let tables = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            $0.text(0)
        }
        var rows: [String: [String]] = [:]
        for table in tables {
            let columns = try database.rows("SELECT name FROM pragma_table_info(:value)", [":value": table]) { $0.text(0) }
            let quoted = columns.map { "quote(\"\($0)\")" }.joined(separator: " || ',' || ")
            rows[table] = try database.rows("SELECT \(quoted) FROM \(table)") { $0.text(0) }.sorted()
        }
        return rows
    }

    /// A catalogue made as a person makes one: an import, a label and a second one over it, a
    /// forget, a reclassification with another recipe (a second run), and a failing file.
    static func madeCatalogue(in folder: PhotoFolder) throws -> String {
        let db = folder.path("made.sqlite")
        try folder.write(Array("not a photo".utf8), to: "junk/broken.jpg")
        for arguments in [["import", "--jobs", "1", photos, folder.path("junk")], ["label", "coat", coat],
                          ["label", "dress", coat], ["label", "bag", "2"], ["colour", "navy", coat, "2"],
                          ["colour", "--clear", "2"], ["colour", "pink", "3"], ["forget", "--yes", "3"],
                          ["reclassify", "--prep", "fashion-mnist"]] {
            let result = try WardrobeProcess.run(arguments + ["--db", db])
            #expect(result.status == 0 || (arguments[0] == "import" && result.status == 2), "\(arguments): \(result.stderr)")
        }
        return db
    }

    @Test func aRoundTripThroughPostgreSQLGivesTheSameRowsInEveryTable() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let made = try Self.madeCatalogue(in: folder)
        let server = try TestPostgres.shared().newDatabase("copy")
        let back = folder.path("back.sqlite"), again = folder.path("again.sqlite")
        for (source, destination) in [(made, server), (server, back), (back, again)] {
            let result = try WardrobeProcess.run(["copy", source, destination])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Copied ") && result.stdout.contains("22 tables")
                    && result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
        }
        let original = try Self.rows(of: made)
        // Twelve photos imported and one forgotten, three labels, three colours (one with the
        // forgotten image), two runs, the broken file.
        #expect(original.mapValues(\.count).filter {
            ["images", "corrections", "colour_corrections", "runs", "import_failures"].contains($0.key)
        } == ["images": 11, "corrections": 3, "colour_corrections": 3, "runs": 2, "import_failures": 1])
        for copy in [back, again] {
            let copied = try Self.rows(of: copy)
            #expect(copied.keys.sorted() == original.keys.sorted())
            for (table, rows) in original { #expect(copied[table] == rows, "table \(table) of \(copy)") }
        }
        // The copy on the server is a catalogue like any: it takes new rows after the copied ids.
        let label = try WardrobeProcess.run(["label", "coat", "1", "--db", server])
        #expect(label.status == 0, "\(label.stderr)")
        let history = try WardrobeProcess.run(["history", "--json", "1", "--db", server])
        #expect(history.stdout.components(separatedBy: "\"Coat\"").count > 1, "\(history.stdout)")
    }

    @Test func aDestinationThatIsNotEmptyIsRefusedAndLeftAsItWas() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let made = try Self.madeCatalogue(in: folder)
        let other = folder.path("other.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", other, Self.photos + "/pants"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let server = try TestPostgres.shared().newDatabase("full")
        #expect(try WardrobeProcess.run(["copy", other, server]).status == 0)
        let before = try Self.rows(of: other)
        let fileBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let listedBefore = try WardrobeProcess.run(["list", "--json", "--db", server]).stdout
        for destination in [other, server] {
            let result = try WardrobeProcess.run(["copy", made, destination])
            #expect(result.status == 1)
            #expect(result.stderr == "error: \(destination): not copied: it is not empty; copy writes only into a new "
                    + "or empty catalogue, and this one was left as it was\n", "\(result.stderr)")
        }
        #expect(try Self.rows(of: other) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == fileBefore)
        #expect(try WardrobeProcess.run(["list", "--json", "--db", server]).stdout == listedBefore)
    }

    @Test func aWrongPasswordIsRefusedWithoutThePasswordInTheOutput() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let made = try Self.madeCatalogue(in: folder)
        let postgres = try TestPostgres.shared()
        let role = "copier\(getpid())"
        try postgres.role(role, password: "right-horse-battery")
        let url = try postgres.newDatabase("secret")
        let withPassword = { (password: String) in url.replacingOccurrences(of: "postgres@", with: "\(role):\(password)@") }
        let wrong = try WardrobeProcess.run(["copy", made, withPassword("wr0ng-staple-9")])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.split(separator: "\n").count == 1 && wrong.stderr.contains("password authentication failed"),
                "\(wrong.stderr)")
        #expect(!(wrong.stdout + wrong.stderr).contains("wr0ng-staple-9"))
        let right = try WardrobeProcess.run(["copy", "--json", made, withPassword("right-horse-battery")])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(!(right.stdout + right.stderr).contains("right-horse-battery"))
        #expect(right.stdout.contains("\"destination\" : \"postgresql://\(role)@"), "\(right.stdout)")
    }
}

extension CatalogueCopyTests {
    /// Both catalogues must be at this wardrobe's schema step: an older source is refused as every
    /// reading command refuses it, before anything of the destination is made.
    @Test func aSourceAtAnOlderSchemaStepIsRefusedAndNothingIsMade() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let old = folder.path("old.sqlite"), copy = folder.path("copy.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", old, Self.photos + "/pants"]).status == 0)
        let latest = try Catalogue(path: old).version
        try Database(path: old, mode: .readWrite).execute("PRAGMA user_version = \(latest - 1)")
        let result = try WardrobeProcess.run(["copy", old, copy])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(old): catalogue version \(latest - 1) must be upgraded to \(latest); "
                + "open it once for writing\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy))
    }

    /// An image deleted by another program with its foreign keys off (`sqlite3`'s default) leaves
    /// its classifications and paths referring to nothing. `check` said 'no damage found', and
    /// `copy` stopped at its first insert with 'SQLite error 19 (extended 787): FOREIGN KEY
    /// constraint failed - while executing `INSERT INTO classifications ...`' (PostgreSQL's COPY
    /// alike); `check` now names those rows and `copy` refuses the source in one line first.
    @Test func aSourceWithRowsReferringNowhereIsRefusedInOneLineAndCheckNamesThem() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let source = folder.path("source.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", source, "--quiet", Self.photos + "/pants"]).status == 0)
        try Database(path: source, mode: .readWrite).executeScript("PRAGMA foreign_keys = OFF; DELETE FROM images WHERE id = 1;")
        let check = try WardrobeProcess.run(["check", "--db", source])
        #expect(check.status == 1 && check.stdout.contains(
            "classifications referring to images that are not there: 1 row (changed by another program)"), "\(check.stdout)")
        let copy = folder.path("copy.sqlite")
        for destination in [copy, try TestPostgres.shared().newDatabase("dangling")] {
            let result = try WardrobeProcess.run(["copy", source, destination])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: \(source): not copied: it has classifications referring to images "
                                            + "that are not there: 1 row (changed by another program); 'wardrobe check' lists them")
                    && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: copy))
    }
}
