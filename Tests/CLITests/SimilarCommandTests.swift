import Catalogue
import Foundation
import Testing

/// `similar` end to end through the built binary, on the photos `DuplicatePhotos` makes: the
/// shirt's three copies come before the unrelated trousers, nearest first, never the query
/// itself; --limit and --json hold; an unknown image and one without fingerprints are refused
/// in one line.
@Suite struct SimilarCommandTests {
    struct Neighbour: Decodable { var image: Int64; var path: String?; var distance: Double; var bits: Int; var colour: String? }
    struct Report: Decodable { var image: Int64; var compared: Int; var neighbours: [Neighbour] }

    static func similar(_ db: String, _ arguments: [String]) throws -> Report {
        let result = try WardrobeProcess.run(["similar", "--db", db, "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
    }

    static func name(_ neighbour: Neighbour) -> String {
        URL(fileURLWithPath: neighbour.path ?? "").lastPathComponent
    }

    @Test func theCopiesComeFirstThenWhatIsUnrelated() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        for query in ["shirt.jpg", "shirt-cropped.jpg", "shirt-bright.jpg"] {
            let report = try Self.similar(db, [folder.path("photos/\(query)")])
            let names = report.neighbours.map(Self.name)
            #expect(report.compared == 4 && names.count == 4, "\(names)")
            #expect(!names.contains(query), "the query is not its own neighbour: \(names)")
            #expect(Set(names.prefix(3)) == Set(["shirt.jpg", "shirt-small.jpg", "shirt-bright.jpg", "shirt-cropped.jpg"]).subtracting([query]),
                    "\(query): \(names)")
            #expect(names.last == "trousers.jpg", "\(query): \(names)")
            let distances = report.neighbours.map(\.distance)
            #expect(distances == distances.sorted() && distances.allSatisfy { (0...1.5).contains($0) }, "\(distances)")
            // The trousers are far in fingerprints, and of the shirt's colour: the colour does not bring them near.
            #expect(report.neighbours.last!.bits > 2 * report.neighbours[2].bits, "\(report.neighbours)")
        }
        let two = try Self.similar(db, ["--limit", "2", folder.path("photos/shirt.jpg")])
        #expect(two.neighbours.count == 2)
        let text = try WardrobeProcess.run(["similar", "--db", db, "--limit", "1", folder.path("photos/trousers.jpg")])
        #expect(text.status == 0 && text.stdout.split(separator: "\n").count == 1 && text.stdout.contains("shirt"), "\(text.stdout)")
    }

    @Test func anUnknownImageOrOneWithoutFingerprintsIsRefusedInOneLine() throws {
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let unknown = try WardrobeProcess.run(["similar", "--db", db, "999"])
        #expect(unknown.status == 1 && unknown.stderr.contains("999") && unknown.stdout.isEmpty, "\(unknown.stderr)")
        let usage = try WardrobeProcess.run(["similar", "--db", db, "--limit", "0", "1"])
        #expect(usage.status == 64, "\(usage.stderr)")
        try Catalogue(path: db).database.execute("UPDATE images SET fingerprint = NULL, garment_fingerprint = NULL WHERE id = 1")
        let missing = try WardrobeProcess.run(["similar", "--db", db, "1"])
        #expect(missing.status == 1 && missing.stderr.contains("run 'wardrobe fingerprints'")
                && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        // The others are still compared, without it.
        let other = try Self.similar(db, ["2"])
        #expect(other.compared == 3 && !other.neighbours.contains { $0.image == 1 })
        #expect(try WardrobeProcess.run(["fingerprints", "--db", db]).status == 0)
        #expect(try Self.similar(db, ["1"]).neighbours.count == 4)
    }
}
