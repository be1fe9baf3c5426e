import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing
import Training

/// `wardrobe label` end to end on real photos: a person's labels move images
/// between labels everywhere (list, stats, export), survive a re-run by
/// another model, which is measured against them, and can be taken back.
@Suite(.serialized) struct CorrectionCommandTests {
    struct Stats: Decodable {
        struct Label: Decodable { var label: String; var count: Int }
        struct Agreement: Decodable { var label: String; var labelled: Int; var agreed: Int }
        var labels: [Label]
        var agreement: [Agreement]
        var corrected: Int
    }

    struct Report: Decodable {
        var corrected: Int
        var person_labelled: Int
        var agrees_with_person: Int
    }

    struct Event: Decodable {
        var kind: String?
        var label: String?
        var command: String?
    }

    static let labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]

    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }

    init() throws {
        folder = try PhotoFolder()
    }

    func run(_ arguments: [String], input: String? = nil) throws -> WardrobeProcess.Result {
        try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst(), input: input)
    }

    func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    func ids(_ label: String) throws -> Set<Int64> {
        let result = try run(["list", "--label", label, "--ids"])
        #expect(result.status == 0, "\(result.stderr)")
        return Set(result.stdout.split(separator: "\n").compactMap { Int64($0) })
    }

    /// `label LABEL -` reads a list as a script writes it: CRLF, no final line break, the
    /// same image twice (labelled once); a line that names no image is an error naming its
    /// line on the standard input, and nothing is labelled. The error named the word only,
    /// which in a list of thousands did not say where it was; then only the first such line.
    @Test func aListOnStdinIsReadAsWrittenAndABadLineIsNamed() throws {
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        try #require(try run(["import", "--quiet", "--prep", "fashion-mnist", folder.path("photos")]).status == 0)
        let before = try #require(FileManager.default.contents(atPath: db))
        for (input, line) in [("1\n2\n\n1\u{0}\n", "standard input line 4: '1\\x00' is not an image id, a hash prefix (hex digits) or a path"),
                              ("1\r\n2\r\n0\r\n", "standard input line 3: image 0 in \(db) not found"),
                              ("3\n/no/such.png", "standard input line 2: image imported from /no/such.png in \(db) not found"),
                              // Every bad line is named, not only the first: three typos were three runs.
                              ("1\n0\n2\n9\n", "2 lines name no image: standard input line 2: image 0 in \(db) not found; "
                                  + "standard input line 4: image 9 in \(db) not found"),
                              ("zz\n1\nqq\n", "standard input: 2 lines name no image: line 1: 'zz' is not an image id, a hash "
                                  + "prefix (hex digits) or a path; line 3: 'qq' is not an image id, a hash prefix (hex digits) or a path"),
                              ((1...12).map { "\($0 + 10)\n" }.joined(), (1...10).map { "standard input line \($0): image \($0 + 10) in \(db) not found" }
                                  .joined(separator: "; ").replacingOccurrences(of: "standard input line 1:", with: "12 lines name no image: standard input line 1:")
                                  + "; and 2 more")] {
            let refused = try run(["label", "coat", "-"], input: input)
            #expect(refused.status == 1 && refused.stderr == "error: \(line)\n", "\(input.debugDescription): \(refused.stderr)")
            #expect(FileManager.default.contents(atPath: db) == before, "nothing labelled")
        }
        let labelled = try run(["label", "coat", "-"], input: "1\r\n2\r\n1\r\n2")
        #expect(labelled.status == 0 && labelled.stderr == "labelled 2 images\n", "\(labelled.stderr)")
        #expect(try ids("Coat") == [1, 2])
    }

    /// `--quiet` leaves out the row per image (a script labelling hundreds wants only the
    /// summary), and labels exactly as without it. Runs on the demo's sample photos.
    @Test func quietLabelsPrintOnlyTheSummary() throws {
        defer { folder.remove() }
        let imported = try run(["import", "--quiet", FileManager.default.currentDirectoryPath + "/Fixtures/photos"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let quiet = try run(["label", "--quiet", "coat", "1", "2", "3"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty, "no row per image: \(quiet.stdout)")
        #expect(quiet.stderr.contains("labelled 3 images"), "\(quiet.stderr)")
        #expect(try ids("coat").isSuperset(of: [1, 2, 3]))
        let loud = try run(["label", "dress", "4"])
        #expect(loud.stdout.contains("->  Dress"), "without --quiet a row per image: \(loud.stdout)")
        let both = try run(["label", "--quiet", "--json", "coat", "5"])
        #expect(both.status == 64 && both.stderr.contains("--quiet and --json cannot be combined"), "\(both.stderr)")
    }

    @Test func twentyLabelsMoveImagesEverywhereAndSurviveAnotherModel() throws {
        defer { folder.remove() }
        guard try RealPhotos.copy(perFolder: 4, to: folder.root.appendingPathComponent("photos")) > 0 else {
            print(RealPhotos.skipMessage)
            return
        }
        let imported = try run(["import", "--quiet", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = try json([ListedImage].self, ["list", "--json", "--sort", "id"])
        #expect(before.count >= 30)

        // Twenty images, each given a label the model did not give: six by id,
        // six by path, six through stdin (a CSV header line included), two as none.
        var wanted: [Int64: String] = [:]
        for row in before.prefix(12) {
            wanted[row.id] = Self.labels[(Self.labels.firstIndex(of: row.model_label)! + 3) % 10]
        }
        let piped = before.dropFirst(12).filter { $0.model_label != "Coat" }.prefix(6)
        for row in piped { wanted[row.id] = "Coat" }
        let nothing = before.dropFirst(12).filter { wanted[$0.id] == nil }.prefix(2)
        for row in nothing { wanted[row.id] = "none" }
        #expect(wanted.count == 20)
        for row in before.prefix(6) {
            let result = try run(["label", wanted[row.id]!, String(row.id)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        for row in before.dropFirst(6).prefix(6) {
            let result = try run(["label", wanted[row.id]!.lowercased(), try #require(row.path)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // Rows as `list --csv` writes them: an id, then the image's SHA-256.
        let listed = try run(["list", "--csv", "--sort", "id"]).stdout.split(separator: "\n")
        let csv = listed.filter { row in row.hasPrefix("id,") || piped.contains { row.hasPrefix("\($0.id),") } }
            .joined(separator: "\n") + "\n"
        let throughStdin = try run(["label", "jacket", "-"], input: csv)
        #expect(throughStdin.status == 0, "\(throughStdin.stderr)")
        let noneResult = try run(["label", "none"] + nothing.map { String($0.id) })
        #expect(noneResult.status == 0, "\(noneResult.stderr)")
        let ambiguous = try run(["label", "shoes", "1"])
        #expect(ambiguous.status == 64 && ambiguous.stderr.contains("Sandal, Sneaker, Ankle boot"))

        // list --label finds each under its new label, never under its old one.
        for (id, label) in wanted {
            let old = before.first { $0.id == id }!.model_label
            #expect(try ids(label).contains(id), "\(id) under \(label)")
            #expect(try !ids(old).contains(id), "\(id) still under \(old)")
        }
        // stats counts moved with them.
        var expected: [String: Int] = [:]
        for row in before { expected[wanted[row.id] ?? row.model_label, default: 0] += 1 }
        let stats = try json(Stats.self, ["stats", "--json"])
        for label in stats.labels { #expect(label.count == expected[label.label, default: 0], "\(label.label)") }
        #expect(stats.corrected == 20)
        #expect(stats.agreement.map(\.labelled).reduce(0, +) == 18, "none is no label to agree with")
        // export shows the effective label and the model's side by side.
        let exported = try run(["export", "--format", "csv"])
        for line in exported.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let id = Int64(fields[0]), let label = wanted[id] else { continue }
            #expect(fields[2] == label && fields[3] == "person")
            #expect(fields[4] == before.first { $0.id == id }!.model_label)
        }

        // Another model re-runs everything: the twenty labels stand, and the
        // summary says how often the new model agrees with them.
        let model = folder.path("weak.aimodel")
        try Network(architecture: .clothing(width: 4, hidden: 16), seed: 11)
            .modelFile(name: "weak", version: "seed11", labels: FashionMNIST.labels,
                       training: ["purpose": "a second model for tests"])
            .write(to: URL(fileURLWithPath: model))
        let rerun = try run(["reclassify", "--model", model, "--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(rerun.stdout.utf8))
        let after = try json([ListedImage].self, ["list", "--json", "--sort", "id"])
        for row in after where wanted[row.id] != nil {
            #expect(row.label == wanted[row.id] && row.label_source == "person")
        }
        let agreed = after.filter { wanted[$0.id] != nil && wanted[$0.id] != "none" && $0.model_label == wanted[$0.id] }
        #expect(report.corrected == 20 && report.person_labelled == 18 && report.agrees_with_person == agreed.count)
        let text = try run(["reclassify", "--model", model, "--dry-run"])
        #expect(text.stdout.contains("agrees with \(agreed.count) of 18 labels it did not learn from"), "\(text.stdout)")

        // history shows the person's act in its place; --clear gives the model's label back.
        let first = before[0]
        let relabel = try run(["label", "bag", String(first.id)])
        #expect(relabel.status == 0)
        #expect(try run(["label", "--clear", String(first.id)]).status == 0)
        let events = try json([Event].self, ["history", "--json", String(first.id)])
        #expect(events.map { $0.kind ?? "classification" } == ["classification", "label", "classification", "label", "clear"])
        #expect(events.compactMap(\.command) == ["import", "label", "reclassify", "label", "label"])
        let cleared = try #require(try json([ListedImage].self, ["list", "--json"]).first { $0.id == first.id })
        #expect(cleared.label_source == "model" && cleared.label == cleared.model_label)
        let table = try run(["history", String(first.id)])
        #expect(table.stdout.contains("person") && table.stdout.contains("(cleared)"))
    }
}
