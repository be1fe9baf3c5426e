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
        #expect(unknown.status == 64 && unknown.stderr.contains("no colour is named 'bleu'"), "\(unknown.stderr)")
        let red = try #require(all["red.jpg"])
        let show = try WardrobeProcess.run(["show", "--db", db, "--no-preview", String(red.id)])
        #expect(show.stdout.contains("colour") && show.stdout.contains("red  (red "), "\(show.stdout)")
        let csv = try WardrobeProcess.run(["export", "--db", db, "--format", "csv", "--colour", "red"]).stdout.split(separator: "\n")
        #expect(csv.first?.hasSuffix(",taken_at,colour,colours") == true, "\(csv)")
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
}
