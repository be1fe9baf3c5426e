import Catalogue
import Foundation
import Imaging
import Testing

/// Garment colour, end to end through the built binary: measured at import on the stored
/// thumbnail, listed by `list --colour` (one name or several), carried by `list --json` and
/// `export`, and measured for images imported before it was kept by `colours`, from their
/// thumbnails alone.
@Suite struct ColourCommandTests {
    struct Listed: Decodable {
        var id: Int64
        var path: String?
        var colour: String?
        var colours: String?
    }

    /// A garment (a body and two sleeves) of one colour on a light wall, with a photo's grain.
    static func photo(_ colour: [UInt8]) -> Bitmap {
        let width = 192, height = 256
        var photo = Bitmap(width: width, height: height, filledWith: [0, 0, 0])
        for y in 0..<height {
            for x in 0..<width {
                let inBody = x >= width * 3 / 10 && x < width * 7 / 10 && y >= height / 5 && y < height * 17 / 20
                let inSleeves = x >= width / 8 && x < width * 7 / 8 && y >= height / 5 && y < height * 2 / 5
                let grain = UInt8((x * 7 + y * 13) % 9)
                photo.set(x: x, y: y, to: (inBody || inSleeves ? colour : [232, 230, 226]).map { $0 + grain })
            }
        }
        return photo
    }

    static let garments: [(file: String, colour: [UInt8], name: String)] = [
        ("red.jpg", [170, 35, 40], "red"), ("navy.jpg", [38, 42, 78], "navy"),
        ("blue.jpg", [70, 100, 150], "blue"), ("black.jpg", [24, 24, 26], "black"),
    ]

    static func folder() throws -> PhotoFolder {
        let folder = try PhotoFolder()
        for garment in garments {
            try folder.write(try JPEGEncoder(quality: 90).encode(photo(garment.colour)), to: "photos/\(garment.file)")
        }
        return folder
    }

    func listed(_ db: String, _ arguments: [String] = []) throws -> [String: Listed] {
        let result = try WardrobeProcess.run(["list", "--db", db, "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try JSONDecoder().decode([Listed].self, from: Data(result.stdout.utf8))
        return Dictionary(uniqueKeysWithValues: rows.map { (URL(fileURLWithPath: $0.path ?? "").lastPathComponent, $0) })
    }

    @Test func importMeasuresColoursAndListChoosesByThem() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let all = try listed(db)
        #expect(all.mapValues { $0.colour } == Dictionary(uniqueKeysWithValues: Self.garments.map { ($0.file, $0.name) }))
        #expect(all["red.jpg"]?.colours?.hasPrefix("red ") == true, "\(String(describing: all["red.jpg"]))")
        #expect(try listed(db, ["--colour", "blue"]).keys.sorted() == ["blue.jpg"])
        #expect(try listed(db, ["--colour", "navy,blue"]).keys.sorted() == ["blue.jpg", "navy.jpg"])
        #expect(try listed(db, ["--colour", "green"]).isEmpty)
        let unknown = try WardrobeProcess.run(["list", "--db", db, "--colour", "bleu"])
        // A typo names the nearest name, as a label's does; a word near none lists the palette.
        #expect(unknown.status == 64 && unknown.stderr.contains("--colour: unknown colour 'bleu'; did you mean 'blue'?"),
                "\(unknown.stderr)")
        let far = try WardrobeProcess.run(["list", "--db", db, "--colour", "chartreuse"])
        #expect(far.status == 64 && far.stderr.contains("unknown colour 'chartreuse'; the colours are: black, white"), "\(far.stderr)")
        // Read as `colour` and the gallery read a name: American spelling and case forgiven, a
        // look-alike letter named (`gray` was refused, and a Cyrillic а said nothing of itself).
        #expect(try listed(db, ["--colour", "Navy, BLUE"]).keys.sorted() == ["blue.jpg", "navy.jpg"])
        let gray = try WardrobeProcess.run(["list", "--db", db, "--colour", "gray,multi-color,black", "--ids"])
        #expect(gray.status == 0 && gray.stdout.split(separator: "\n").count == 1, "\(gray.stdout)\(gray.stderr)")
        let cyrillic = try WardrobeProcess.run(["list", "--db", db, "--colour", "bl\u{430}ck"])
        #expect(cyrillic.status == 64 && cyrillic.stderr.contains("(with U+0430, which no colour holds)"), "\(cyrillic.stderr)")
        let invisible = try WardrobeProcess.run(["list", "--db", db, "--colour", "blue,black\u{200B}"])
        #expect(invisible.status == 64 && invisible.stderr.contains("(with U+200B, which no colour holds)"), "\(invisible.stderr)")
        #expect(try listed(db, ["--colour", "blue,navy,blue"]).keys.sorted() == ["blue.jpg", "navy.jpg"])
        for empty in [",", "blue,,navy", "blue,"] {
            let refused = try WardrobeProcess.run(["list", "--db", db, "--colour", empty])
            #expect(refused.status == 64 && refused.stderr.contains("an empty name in the list"), "\(empty): \(refused.stderr)")
        }
        let red = try #require(all["red.jpg"])
        let show = try WardrobeProcess.run(["show", "--db", db, "--no-preview", String(red.id)])
        #expect(show.stdout.contains("colour") && show.stdout.contains("red  (red "), "\(show.stdout)")
        let csv = try WardrobeProcess.run(["export", "--db", db, "--format", "csv", "--colour", "red"]).stdout.split(separator: "\n")
        #expect(csv.first?.hasSuffix(",taken_at,colour,colours,colour_source") == true, "\(csv)")
        #expect(csv.count == 2 && csv[1].contains(",red,"), "\(csv)")
    }

    /// A catalogue from before colours were kept: `colours` measures them from the stored
    /// thumbnails (the photos are gone), as import does, and only what is left next time.
    @Test func coloursMeasuresOldImagesFromTheirThumbnails() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let atImport = try listed(db)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = NULL, colours = NULL, colour_on_garment = NULL")
        try FileManager.default.removeItem(atPath: folder.path("photos"))
        #expect(try listed(db).values.allSatisfy { $0.colour == nil && $0.colours == nil })
        #expect(try listed(db, ["--colour", "red"]).isEmpty)
        struct Report: Decodable, Equatable { var measured: Int; var unreadable: Int }
        func run() throws -> Report {
            let result = try WardrobeProcess.run(["colours", "--db", db, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        }
        #expect(try run() == Report(measured: 4, unreadable: 0))
        let measured = try listed(db)
        #expect(measured.mapValues { $0.colour } == atImport.mapValues { $0.colour })
        #expect(measured.mapValues { $0.colours } == atImport.mapValues { $0.colours })
        #expect(try run() == Report(measured: 0, unreadable: 0))
    }

    /// A new catalogue's colours are all measured at import by this version's rule, which the
    /// import records: `colours` has nothing to measure again (it measured every image again,
    /// taking the unrecorded rule for the first).
    @Test func aNewCatalogueIsMeasuredByTodaysRule() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        #expect(try Catalogue(path: db).colourRule() == GarmentColours.rule)
        let result = try WardrobeProcess.run(["colours", "--db", db, "--json"])
        #expect(result.status == 0 && result.stdout.contains(#""measured" : 0"#) && result.stdout.contains(#""again" : false"#),
                "\(result.stdout)\(result.stderr)")
    }

    /// A catalogue a newer wardrobe measured records a rule this version does not know. The
    /// colours import, classify and `colours` measure here by this version's rule passed for
    /// the newer rule's, so the newer version never measured them again; each now sets the
    /// record back to this version's rule when it measures, and leaves it when it does not.
    @Test func coloursMeasuredUnderANewerRecordedRuleSetItBack() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let catalogue = try Catalogue(path: db)
        let newer = GarmentColours.rule + 1
        try catalogue.recordColourRule(newer, at: Date())
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        #expect(try catalogue.colourRule() == newer, "nothing measured, nothing set back")
        #expect(try WardrobeProcess.run(["colours", "--db", db]).status == 0)
        #expect(try catalogue.colourRule() == newer, "nothing measured, nothing set back")

        try folder.write(try JPEGEncoder(quality: 90).encode(Self.photo([60, 140, 70])), to: "more/green.jpg")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("more")]).status == 0)
        #expect(try catalogue.colourRule() == GarmentColours.rule, "import")

        try catalogue.recordColourRule(newer, at: Date())
        try folder.write(try JPEGEncoder(quality: 90).encode(Self.photo([200, 190, 60])), to: "yellow.jpg")
        #expect(try WardrobeProcess.run(["classify", "--db", db, folder.path("yellow.jpg")]).status == 0)
        #expect(try catalogue.colourRule() == GarmentColours.rule, "classify")

        try catalogue.recordColourRule(newer, at: Date())
        try catalogue.database.execute("UPDATE images SET colour = NULL, colours = NULL WHERE id = 1")
        #expect(try WardrobeProcess.run(["colours", "--db", db]).status == 0)
        #expect(try catalogue.colourRule() == GarmentColours.rule, "colours")
    }

    /// Colours an earlier rule measured (the catalogue recorded none, or an older one) are
    /// measured again, every image, by `colours`, and the rule recorded: the next run measures
    /// only what is left. A person's colour stays as it was.
    @Test func coloursMeasuresAgainWhatAnEarlierRuleMeasured() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let atImport = try listed(db)
        let red = try #require(atImport["red.jpg"])
        #expect(try WardrobeProcess.run(["colour", "--db", db, "pink", String(red.id)]).status == 0)
        // What an earlier rule left: other colours, and the rule it recorded.
        let catalogue = try Catalogue(path: db)
        try catalogue.database.execute("UPDATE images SET colour = 'green', colours = 'green 1 50 -40 30'")
        try catalogue.recordColourRule(1, at: Date())
        struct Report: Decodable, Equatable { var measured: Int; var again: Bool; var rule: Int }
        func run() throws -> Report {
            let result = try WardrobeProcess.run(["colours", "--db", db, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        }
        let rule = GarmentColours.rule
        #expect(try run() == Report(measured: 4, again: true, rule: rule))
        #expect(try catalogue.colourRule() == rule)
        let measured = try listed(db)
        #expect(measured.mapValues { $0.colours } == atImport.mapValues { $0.colours })
        #expect(measured["red.jpg"]?.colour == "pink" && measured["navy.jpg"]?.colour == "navy")
        #expect(try run() == Report(measured: 0, again: false, rule: rule))
        let table = try WardrobeProcess.run(["colours", "--db", db]).stdout
        #expect(table.contains("measured") && !table.contains("again"), "\(table)")
    }

    /// `export` and `list` say where each colour came from, as `label_source` does of the label:
    /// `colour_source` is `person` for a colour a person gave, `measured` else, empty for none.
    @Test func exportSaysWhoGaveTheColour() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let all = try listed(db)
        let red = try #require(all["red.jpg"]), black = try #require(all["black.jpg"])
        #expect(try WardrobeProcess.run(["colour", "--db", db, "pink", String(red.id)]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = NULL, colours = NULL WHERE id = :value", [":value": black.id])
        struct Exported: Decodable { var id: Int64; var colour: String?; var colour_source: String? }
        let json = try WardrobeProcess.run(["export", "--db", db, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([Exported].self, from: Data(json.stdout.utf8)).map { ($0.id, $0) })
        #expect(rows[red.id]?.colour == "pink" && rows[red.id]?.colour_source == "person")
        #expect(rows[black.id]?.colour == nil && rows[black.id]?.colour_source == nil)
        #expect(rows.values.filter { $0.colour_source == "measured" }.count == 2)
        let csv = try WardrobeProcess.run(["export", "--db", db, "--format", "csv"]).stdout.split(separator: "\n")
        #expect(csv.first?.hasSuffix(",colour,colours,colour_source") == true, "\(csv)")
        #expect(csv.contains { $0.hasPrefix("\(red.id),") && $0.contains(",pink,") && $0.hasSuffix(",person") }, "\(csv)")
        #expect(csv.contains { $0.hasPrefix("\(black.id),") && $0.hasSuffix(",,") }, "\(csv)")
        let list = try WardrobeProcess.run(["list", "--db", db, "--csv", "--colour", "navy"]).stdout
        #expect(list.split(separator: "\n").last?.hasSuffix(",measured") == true, "\(list)")
    }

    /// `forget` counts a person's colour acts apart from the label acts it removes.
    @Test func forgetCountsColourActsApartFromLabels() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let red = try #require(try listed(db)["red.jpg"]), blue = try #require(try listed(db)["blue.jpg"])
        #expect(try WardrobeProcess.run(["label", "--db", db, "Coat", String(red.id)]).status == 0)
        #expect(try WardrobeProcess.run(["colour", "--db", db, "pink", String(red.id)]).status == 0)
        #expect(try WardrobeProcess.run(["colour", "--db", db, "--clear", String(red.id)]).status == 0)
        struct Report: Decodable { var images: Int; var corrections: Int; var colour_corrections: Int }
        let json = try WardrobeProcess.run(["forget", "--db", db, "--yes", "--json", String(red.id)])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        #expect(report.images == 1 && report.corrections == 1 && report.colour_corrections == 2, "\(json.stdout)")
        #expect(try WardrobeProcess.run(["colour", "--db", db, "navy", String(blue.id)]).status == 0)
        let text = try WardrobeProcess.run(["forget", "--db", db, "--yes", String(blue.id)])
        #expect(text.stdout.contains("0 labels, 1 colour\n"), "\(text.stdout)")
    }

    /// `colour`: a person's colour, kept like a label. It outranks the measured one in list,
    /// show and export; no re-run changes it (reclassify, colours, a re-import); history shows
    /// every act; --clear takes it back; a wrong word or image is one line naming it, and
    /// nothing is written.
    @Test func aPersonsColourIsKeptLikeALabel() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let all = try listed(db)
        let red = try #require(all["red.jpg"]), navy = try #require(all["navy.jpg"]), blue = try #require(all["blue.jpg"])
        let set = try WardrobeProcess.run(["colour", "--db", db, "Pink", String(red.id)])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("red  ->  pink (measured: red)"), "\(set.stdout)")
        #expect(set.stderr.contains("coloured 1 image"), "\(set.stderr)")
        // From stdin, as `list --ids` gives them: both blues become navy.
        let ids = try WardrobeProcess.run(["list", "--db", db, "--colour", "blue,navy", "--ids"]).stdout
        let piped = try WardrobeProcess.run(["colour", "--db", db, "--json", "navy", "-"], input: ids)
        #expect(piped.status == 0, "\(piped.stderr)")
        struct Change: Decodable { var image: Int64; var before: String?; var after: String?; var measured: String? }
        let changes = try JSONDecoder().decode([Change].self, from: Data(piped.stdout.utf8))
        #expect(changes.map(\.image).sorted() == [navy.id, blue.id].sorted() && changes.allSatisfy { $0.after == "navy" })
        #expect(try listed(db, ["--colour", "pink"]).keys.sorted() == ["red.jpg"])
        #expect(try listed(db, ["--colour", "red"]).isEmpty)
        #expect(try listed(db, ["--colour", "navy"]).keys.sorted() == ["blue.jpg", "navy.jpg"])
        // Re-runs leave it: a reclassification, a re-import, and measuring again.
        #expect(try WardrobeProcess.run(["reclassify", "--db", db, "--prep", "fashion-mnist"]).status == 0)
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = NULL, colours = NULL, colour_on_garment = NULL")
        #expect(try WardrobeProcess.run(["colours", "--db", db]).status == 0)
        #expect(try listed(db).mapValues { $0.colour } == ["red.jpg": "pink", "navy.jpg": "navy", "blue.jpg": "navy", "black.jpg": "black"])
        // show says who set it, beside the measured colour; history shows the act.
        let show = try WardrobeProcess.run(["show", "--db", db, "--no-preview", String(red.id)]).stdout
        #expect(show.contains("colour    pink  (set by a person") && show.contains("measured  red  (red "), "\(show)")
        let history = try WardrobeProcess.run(["history", "--db", db, String(red.id)]).stdout
        #expect(history.contains("colour pink") && history.contains("coloured pink by a person"), "\(history)")
        // Taken back: the measured colour counts again, and history keeps both acts.
        let clear = try WardrobeProcess.run(["colour", "--db", db, "--clear", String(red.id)])
        #expect(clear.status == 0 && clear.stdout.contains("pink  ->  red"), "\(clear.stdout) \(clear.stderr)")
        #expect(try listed(db, ["--colour", "red"]).keys.sorted() == ["red.jpg"])
        struct Event: Decodable { var kind: String?; var colour: String?; var command: String? }
        let events = try JSONDecoder().decode([Event].self, from: Data(
            try WardrobeProcess.run(["history", "--db", db, "--json", String(red.id)]).stdout.utf8))
        #expect(events.filter { $0.kind?.hasPrefix("colour") == true }.map { "\($0.kind!) \($0.colour ?? "-")" }
                == ["colour pink", "colour_clear -"])
        // Wrong input: one line naming it, and nothing written.
        func acts() throws -> Int64? { try Catalogue(path: db).database.scalarInt("SELECT count(*) FROM colour_corrections") }
        let written = try acts()
        let unknown = try WardrobeProcess.run(["colour", "--db", db, "bleu", String(red.id)])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown colour 'bleu'; did you mean 'blue'?"), "\(unknown.stderr)")
        let missing = try WardrobeProcess.run(["colour", "--db", db, "green", String(red.id), "999"])
        #expect(missing.status == 1 && missing.stderr.contains("999"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        let badLine = try WardrobeProcess.run(["colour", "--db", db, "green", "-"], input: "\(red.id)\n999\n")
        #expect(badLine.status == 1 && badLine.stderr.contains("standard input line 2"), "\(badLine.stderr)")
        #expect(try acts() == written)
    }

    /// `stats` counts images by colour, a person's outranking the measured one, in the table
    /// and in --json, with the images never measured apart.
    @Test func statsCountsImagesByColour() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let red = try #require(try listed(db)["red.jpg"]), black = try #require(try listed(db)["black.jpg"])
        #expect(try WardrobeProcess.run(["colour", "--db", db, "pink", String(red.id)]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = NULL, colours = NULL WHERE id = :value", [":value": black.id])
        struct Colour: Decodable, Equatable { var colour: String; var count: Int; var by_person: Int }
        struct Stats: Decodable { var colours: [Colour]; var unmeasured_colours: Int }
        let result = try WardrobeProcess.run(["stats", "--db", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let stats = try JSONDecoder().decode(Stats.self, from: Data(result.stdout.utf8))
        #expect(stats.colours == [Colour(colour: "pink", count: 1, by_person: 1), Colour(colour: "blue", count: 1, by_person: 0),
                                  Colour(colour: "navy", count: 1, by_person: 0)])
        #expect(stats.unmeasured_colours == 1)
        let table = try WardrobeProcess.run(["stats", "--db", db]).stdout
        #expect(table.contains("COLOUR") && table.contains("BY A PERSON"), "\(table)")
        #expect(table.split(separator: "\n").contains { $0.hasPrefix("  pink ") && $0.hasSuffix(" 1") }, "\(table)")
        #expect(table.split(separator: "\n").contains { $0.hasPrefix("  (not measured) ") }, "\(table)")
    }

    /// A colour name outside the palette, which another program stored (show, list and serve
    /// show it as it is), was left out of `stats`: its images were in no row and the shares
    /// added up to less than the whole. It is counted after the palette's names.
    @Test func statsCountsAColourOutsideThePalette() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = 'chartreuse' WHERE colour = 'red'")
        struct Colour: Decodable, Equatable { var colour: String; var count: Int }
        struct Stats: Decodable { var colours: [Colour] }
        let result = try WardrobeProcess.run(["stats", "--db", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let stats = try JSONDecoder().decode(Stats.self, from: Data(result.stdout.utf8))
        #expect(stats.colours == [Colour(colour: "black", count: 1), Colour(colour: "blue", count: 1),
                                  Colour(colour: "navy", count: 1), Colour(colour: "chartreuse", count: 1)])
    }

    /// A garment no palette name covers a tenth of (a plaid of many colours) is stored as
    /// multicolour with no share; `show` said 'multicolour  ()'.
    @Test func showGivesNoEmptySharesForAGarmentOfManyColours() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.execute("UPDATE images SET colour = 'multicolour', colours = '' WHERE id = 1")
        let shown = try WardrobeProcess.run(["show", "--db", db, "1"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let line = shown.stdout.split(separator: "\n").first { $0.hasPrefix("colour") }
        #expect(line?.split(separator: " ", omittingEmptySubsequences: true) == ["colour", "multicolour"], "\(shown.stdout)")
    }

    /// `list`'s table has a COLOUR column: a person's colour where one was given, else the
    /// measured one; none at all while no image has a colour.
    @Test func listsTableShowsTheColour() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let red = try #require(try listed(db)["red.jpg"])
        #expect(try WardrobeProcess.run(["colour", "--db", db, "pink", String(red.id)]).status == 0)
        func table() throws -> [[Substring]] {
            let result = try WardrobeProcess.run(["list", "--db", db, "--sort", "id"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        }
        let rows = try table()
        let column = try #require(rows.first?.firstIndex(of: "COLOUR"), "\(rows)")
        #expect(rows.first?.index(after: column) == rows.first?.firstIndex(of: "PATH"))
        let colours = Dictionary(uniqueKeysWithValues: rows.dropFirst().map {
            (URL(fileURLWithPath: String($0[column + 1])).lastPathComponent, String($0[column]))
        })
        #expect(colours == ["red.jpg": "pink", "navy.jpg": "navy", "blue.jpg": "blue", "black.jpg": "black"], "\(rows)")
        try Catalogue(path: db).database.execute("UPDATE images SET colour = NULL, colours = NULL, person_colour = NULL")
        #expect(try table().first?.contains("COLOUR") == false)
    }
}
