import Foundation
import Imaging
import Testing

/// Dates at the edges: a file whose clock says a year after 2262, and `--since`/`--until`
/// dates far away. Each used to stop the command on an overflow (a crash, status 132).
@Suite(.serialized) struct ClockOdditiesTests {
    /// Seconds since 1970 of 2400-01-01: past the 64-bit nanoseconds' last year (2262).
    static let farFuture: TimeInterval = 13_569_465_600

    @Test func aFileDatedAfter2262ImportsClassifiesAndIsThenUnchanged() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/future.png")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/now.png")
        let future = folder.path("photos/future.png")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Self.farFuture)],
                                              ofItemAtPath: future)
        let set = try FileManager.default.attributesOfItem(atPath: future)[.modificationDate] as? Date
        try #require((set?.timeIntervalSince1970 ?? 0) > 9_223_372_036, "this file system cannot date a file after 2262")
        let db = folder.path("c.sqlite")
        let first = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Imported 2 of 2 files"), "\(first.stdout)")
        let again = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(again.status == 0 && again.stdout.contains("2 already there"), "\(again.stdout)\(again.stderr)")
        let classify = try WardrobeProcess.run(["classify", "--db", db, "--prep", "fashion-mnist", future])
        #expect(classify.status == 0 && classify.stdout.hasPrefix(future + ": "), "\(classify.stderr)")
    }

    /// A time `list --json` writes, milliseconds and all, is a bound that takes the image at
    /// it (`--since`) or leaves it out (`--until`); it was refused as an invalid date.
    @Test func aTimeCopiedFromTheJSONIsABound() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, _) = try folder.catalogueOfTheSample()
        let json = try WardrobeProcess.run(["list", "--db", db, "--json"]).stdout
        let imported = String(try #require(json.firstMatch(of: /"imported_at": "([^"]+)"/)?.1))
        let since = try WardrobeProcess.run(["list", "--db", db, "--ids", "--since", imported])
        #expect(since.status == 0 && since.stdout == "1\n", "\(imported): \(since.stderr)")
        let until = try WardrobeProcess.run(["list", "--db", db, "--ids", "--until", imported])
        #expect(until.status == 0 && until.stdout.isEmpty, "\(imported): \(until.stderr)")
    }

    @Test func datesAtTheEdgesAreAnAnswerOrAUsageError() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])

        let late = try WardrobeProcess.run(["list", "--db", db, "--since", "9999-12-31", "--ids"])
        #expect(late.status == 0 && late.stdout.isEmpty, "no image is that new: \(late.stderr)")
        let early = try WardrobeProcess.run(["list", "--db", db, "--since", "0001-01-01", "--ids"])
        #expect(early.status == 0 && early.stdout == "1\n", "\(early.stderr)")
        for (command, value) in [("list", "99999999999999d"), ("list", "1e300d"), ("list", "0000-01-01"),
                                 ("reclassify", "99999999999999d")] {
            let result = try WardrobeProcess.run([command, "--db", db, "--since", value] + (command == "list" ? [] : ["--dry-run"]))
            #expect(result.status == 64, "\(command) --since \(value): \(result.status) \(result.stderr.prefix(200))")
            #expect(result.stderr.hasPrefix("error: --since: invalid date '\(value)': a date in the years 1 to 9999\n"),
                    "\(result.stderr.prefix(300))")
        }
        let until = try WardrobeProcess.run(["list", "--db", db, "--until", "99999999999999d"])
        #expect(until.status == 64, "\(until.stderr.prefix(200))")
    }

    /// Times of the years 1 to 9999 are the catalogue's (check passes them) and `--json` writes
    /// them on the proleptic Gregorian calendar, as SQLite and PostgreSQL count days; the tables,
    /// `taken_at` and the dates a person gives were on Foundation's, Julian before 15 October
    /// 1582: the image imported at 0001-01-01T00:00:00.000Z was 'imported 0001-01-03 00:00' in
    /// show, and `--until 0001-01-02` left it out.
    @Test func timesBeforeTheGregorianChangeAreShownAndReadOnTheCalendarJSONWrites() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = try StrangeValueCatalogueTests.changedCatalogue(in: folder, """
            UPDATE images SET first_imported = -62135596800000, taken_at = -62135596800000, taken_offset = NULL WHERE id = 1;
            INSERT INTO corrections (image_id, kind, label, command, corrected_at) VALUES (1, 'label', 4, 'label', -12219292800001);
            """)
        let utc = ["TZ": "UTC"]
        func run(_ arguments: [String]) throws -> String {
            let result = try WardrobeProcess.run(arguments + ["--db", db], environment: utc)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        #expect(try run(["check"]).contains("no damage found"))
        let json = try run(["list", "--json", "--sort", "id"])
        #expect(json.contains(#""imported_at": "0001-01-01T00:00:00.000Z""#) && json.contains(#""taken_at": "0001-01-01T00:00:00""#),
                "\(json)")
        #expect(try run(["show", "1"]).contains("imported  0001-01-01 00:00"))
        // The last millisecond before the change: 14 October on this calendar, 4 October on Julian's.
        #expect(try run(["history", "1"]).contains("1582-10-14 23:59"))
        #expect(try run(["list", "--ids", "--until", "0001-01-02"]) == "1\n")
        #expect(try run(["list", "--ids", "--until", "0001-01-01T00:00:00.001Z"]) == "1\n")
        #expect(try run(["list", "--ids", "--since", "0001-01-02"]).split(separator: "\n").contains("1") == false)
        #expect(try run(["list", "--ids", "--taken-before", "0001-01-02"]) == "1\n")
        // 1500 was a leap year on Julian's calendar only.
        let leap = try WardrobeProcess.run(["list", "--db", db, "--since", "1500-02-29"])
        #expect(leap.status == 64 && leap.stderr.hasPrefix("error: --since: invalid date '1500-02-29'"), "\(leap.stderr)")
    }
}
