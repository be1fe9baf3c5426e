import Catalogue
import Foundation
import Imaging
import Testing
import Training

/// `reclassify`, `list`, `show`, `history`, `stats` and `export` end to end,
/// through the built binary, on a catalogue made by `wardrobe import` from
/// real PNG files of Fashion-MNIST test images.
@Suite(.serialized) struct QueryCommandTests {
    static let labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]

    /// What `list --json` gives per image.
    struct Listed: Decodable, Equatable {
        var id: Int64
        var sha256: String
        var label: String
        var label_source: String
        var model_label: String
        var confidence: Double
        var model: String
        var recipe: String
        var classified_at: String
        var imported_at: String
        var width: Int
        var height: Int
        var format: String
        var path: String?
        var path_state: String
    }

    struct Exported: Decodable, Equatable {
        var classification: Int64
        var image: Int64
        var sha256: String
        var run: Int64
        var model: String
        var recipe: String
        var label: String
        var confidence: Double
        var classified_at: String
        var logits: [Double]
    }

    struct Report: Decodable {
        struct Transition: Decodable, Hashable { var from: String; var to: String; var count: Int }
        var run: Int64?
        var dry_run: Bool
        var model: String
        var recipe: String
        var selected: Int
        var reclassified: Int
        var changed: Int
        var first_classified: Int
        var transitions: [Transition]
        var corrected: Int
        var person_labelled: Int
        var agrees_with_person: Int
        var same_label_share: Double?
    }

    struct HistoryEntry: Decodable {
        var classification: Int64
        var run: Int64
        var command: String
        var model: String
        var recipe: String
        var label: String
        var confidence: Double
        var label_changed: Bool
    }

    /// A folder of `count` Fashion-MNIST test images as PNG, imported with the
    /// bundled model and the fashion-mnist recipe into `catalogue.sqlite`.
    struct Imported {
        let folder: PhotoFolder
        var db: String { folder.path("catalogue.sqlite") }

        init(count: Int) throws {
            folder = try PhotoFolder()
            let png = PNGEncoder()
            for index in 0..<count {
                try folder.write(try png.encode(PhotoFolder.fashionBitmap(index)), to: "images/\(index).png")
            }
            let result = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--quiet",
                                                  folder.path("images")])
            #expect(result.status == 0, "import: \(result.stderr)")
        }

        func run(_ arguments: [String]) throws -> WardrobeProcess.Result {
            try WardrobeProcess.run([arguments[0], "--db", db] + arguments.dropFirst())
        }

        func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
            let result = try run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
        }

        func list(_ arguments: [String] = []) throws -> [Listed] {
            try json([Listed].self, ["list", "--json"] + arguments)
        }

        /// The classifications of `history --json`, without a person's acts.
        func classifications(of image: Int64) throws -> [HistoryEntry] {
            let result = try run(["history", "--json", String(image)])
            #expect(result.status == 0, "\(result.stderr)")
            let events = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            let classifications = try JSONSerialization.data(withJSONObject: events.filter { $0["kind"] == nil })
            return try JSONDecoder().decode([HistoryEntry].self, from: classifications)
        }

        func exportAll() throws -> [Exported] {
            try json([Exported].self, ["export", "--format", "json", "--all"])
        }

        /// A deliberately weak model: the clothing architecture, narrow and
        /// untrained, written by the Training module in milliseconds.
        func weakModel(seed: UInt64 = 7) throws -> String {
            let network = Network(architecture: .clothing(width: 4, hidden: 16), seed: seed)
            let file = network.modelFile(name: "weak", version: "seed\(seed)", labels: FashionMNIST.labels,
                                         training: ["purpose": "a deliberately weak model for tests"])
            let path = folder.path("weak-\(seed).aimodel")
            try file.write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    // MARK: - reclassify

    @Test func reclassifyWithASecondModelAddsARunAndKeepsEverythingElse() throws {
        let set = try Imported(count: 40)
        defer { set.folder.remove() }
        let before = try set.exportAll()
        #expect(before.count == 40)
        let listedBefore = try set.list(["--sort", "id"])

        // A person's correction must survive the run.
        let corrected = listedBefore[3]
        do {
            let catalogue = try Catalogue(path: set.db, mode: .readWrite)
            try catalogue.correct([ImageID(corrected.id)], .label(8), command: "label")
        }

        let model = try set.weakModel()
        let result = try set.run(["reclassify", "--model", model, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        let run = try #require(report.run)
        #expect(report.reclassified == 40)
        #expect(report.selected == 40)
        #expect(report.model == "weak@seed7")
        #expect(report.recipe == "photo@4", "the recipe rule: --prep, else the model's, else photo; never the last run's")
        #expect(report.corrected == 1)
        #expect(report.first_classified == 0)

        let after = try set.exportAll()
        #expect(after.count == 80)
        #expect(Array(after.prefix(40)) == before, "earlier classifications are untouched")
        let added = after.dropFirst(40)
        #expect(added.allSatisfy { $0.run == run && $0.model == "weak@seed7" && $0.recipe == "photo@4" })
        #expect(Set(added.map(\.image)) == Set(before.map(\.image)))

        // The report's transitions are exactly the label pairs that changed.
        let oldLabel = Dictionary(uniqueKeysWithValues: before.map { ($0.image, $0.label) })
        var expected: [Report.Transition: Int] = [:]
        for row in added where oldLabel[row.image] != row.label {
            expected[Report.Transition(from: oldLabel[row.image]!, to: row.label, count: 0), default: 0] += 1
        }
        #expect(report.changed == expected.values.reduce(0, +))
        #expect(Set(report.transitions) == Set(expected.map { Report.Transition(from: $0.key.from, to: $0.key.to, count: $0.value) }))
        #expect(report.transitions.map(\.count) == report.transitions.map(\.count).sorted(by: >))
        // The one label a person gave is what the new model is measured against.
        let newLabel = try #require(added.first { $0.image == corrected.id }).label
        #expect(report.person_labelled == 1 && report.agrees_with_person == (newLabel == "Bag" ? 1 : 0))

        // The current labels are the new run's; the correction still stands.
        let listedAfter = try set.list(["--sort", "id"])
        #expect(listedAfter.map(\.model) == Array(repeating: "weak@seed7", count: 40))
        let correctedAfter = try #require(listedAfter.first { $0.id == corrected.id })
        #expect(correctedAfter.label == "Bag" && correctedAfter.label_source == "person" && correctedAfter.model_label == newLabel)
        #expect(try set.list(["--model", model]).count == 40)
        #expect(try set.list(["--model", "weak@seed7"]).count == 40)

        // History: oldest first, the second entry from the new run, changes marked.
        let history = try set.classifications(of: corrected.id)
        #expect(history.count == 2)
        #expect(history[0].classification < history[1].classification)
        #expect(history.map(\.command) == ["import", "reclassify"])
        #expect(history[1].run == run)
        #expect(history[0].label_changed == false)
        #expect(history[1].label_changed == (history[0].label != history[1].label))

        // The same figures as a person reads them.
        let text = try set.run(["reclassify", "--model", model, "--dry-run"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Would re-run 40 of 40 images with weak@seed7"))
        #expect(text.stdout.contains("changed label"))
        #expect(try set.exportAll().count == 80, "a dry run stores nothing")
    }

    @Test func transitionsArePrintedWithCounts() throws {
        let set = try Imported(count: 30)
        defer { set.folder.remove() }
        let result = try set.run(["reclassify", "--model", try set.weakModel(seed: 3)])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try set.exportAll()
        let old = Dictionary(uniqueKeysWithValues: after.prefix(30).map { ($0.image, $0.label) })
        var counts: [String: Int] = [:]
        for row in after.dropFirst(30) where old[row.image] != row.label {
            counts["\(old[row.image]!) -> \(row.label)", default: 0] += 1
        }
        #expect(!counts.isEmpty, "an untrained model changes some labels")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("Transitions:"))
        for (transition, count) in counts {
            #expect(lines.contains { $0.hasPrefix(transition) && $0.hasSuffix(" \(count)") },
                    "a line '\(transition)  \(count)' in:\n\(result.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("changed label") && $0.hasSuffix(" \(counts.values.reduce(0, +)) of 30") })
    }

    /// `--prep` is recorded with the run it made; the next run without it goes back to the
    /// model's recipe, never the last run's.
    @Test func reclassifyWithAnotherRecipeRecordsIt() throws {
        let set = try Imported(count: 12)
        defer { set.folder.remove() }
        let modelsRecipe = try set.json(Report.self, ["reclassify", "--json", "--dry-run"]).recipe
        let other = try #require(PrepRecipes.all.first { $0.identity != modelsRecipe })
        let report = try set.json(Report.self, ["reclassify", "--prep", other.name, "--json"])
        #expect(report.recipe == other.identity)
        #expect(report.reclassified == 12)
        let added = try set.exportAll().dropFirst(12)
        #expect(added.count == 12)
        #expect(added.allSatisfy { $0.recipe == other.identity && $0.run == report.run })
        let again = try set.json(Report.self, ["reclassify", "--json", "--dry-run"])
        #expect(again.recipe == modelsRecipe, "the model's recipe again, not \(other.identity)")
    }

    /// Reclassification works from thumbnails; with the same model and recipe
    /// it must give the stored label back (the issue asks for 99%).
    @Test func sameModelAndRecipeReproducesStoredLabels() throws {
        let set = try Imported(count: 200)
        defer { set.folder.remove() }
        let report = try set.json(Report.self, ["reclassify", "--json"])
        #expect(report.reclassified == 200)
        let share = try #require(report.same_label_share)
        print("Fashion-MNIST PNGs, same model and recipe from thumbnails: \(200 - report.changed)/200 labels kept")
        #expect(share >= 0.99)

        // Photos: JPEG thumbnails and the photo recipe (the default for photos).
        let encoder = JPEGEncoder(quality: 85)
        for index in 0..<40 {
            try set.folder.write(try encoder.encode(PhotoFolder.photo(width: 400 + index, height: 533, seed: index)),
                                 to: "photos/\(index).jpg")
        }
        let db = set.folder.path("photos.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", set.folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rerun = try WardrobeProcess.run(["reclassify", "--db", db, "--json"])
        let photos = try JSONDecoder().decode(Report.self, from: Data(rerun.stdout.utf8))
        #expect(photos.reclassified == 40)
        print("photos, same model and recipe (\(photos.recipe)) from thumbnails: \(40 - photos.changed)/40 labels kept")
        #expect(try #require(photos.same_label_share) >= 0.99)
    }

    @Test func filtersSelectByConfidenceLabelDateAndImage() throws {
        let set = try Imported(count: 40)
        defer { set.folder.remove() }
        let all = try set.list()
        let threshold = all.map(\.confidence).sorted()[20]  // about half below
        let below = all.filter { $0.confidence < threshold }
        let report = try set.json(Report.self, ["reclassify", "--below", String(threshold), "--json"])
        #expect(report.selected == below.count)
        #expect(report.reclassified == below.count)
        let added = try set.exportAll().dropFirst(40)
        #expect(Set(added.map(\.image)) == Set(below.map(\.id)), "only the uncertain images were re-run")

        let label = all[0].label
        let byLabel = try set.json(Report.self, ["reclassify", "--dry-run", "--json", "--label", label])
        #expect(byLabel.selected == (try set.list(["--label", label]).count))

        let future = try set.json(Report.self, ["reclassify", "--json", "--since", "2999-01-01"])
        #expect(future.selected == 0)
        #expect(future.run == nil, "no empty run is recorded")
        #expect(try set.run(["reclassify", "--label", "bag", "--below", "0"]).stdout.contains("No images match"))
        let past = try set.json(Report.self, ["reclassify", "--dry-run", "--json", "--since", "2000-01-01"])
        #expect(past.selected == 40)

        let two = [all[0], all[1]]
        let named = try set.json(Report.self, ["reclassify", "--dry-run", "--json", String(two[0].id),
                                               String(two[1].sha256.prefix(12))])
        #expect(named.selected == 2)
    }

    // MARK: - list

    @Test func labelsMatchForgivingly() throws {
        let set = try Imported(count: 60)
        defer { set.folder.remove() }
        let all = try set.list()
        for (label, spellings) in [("T-shirt/top", ["tshirt", "t-shirt", "T-SHIRT/TOP", "top", "t shirt"]),
                                   ("Ankle boot", ["ankle-boot", "Ankle boot", "ankleboot", "ankle_boots"]),
                                   ("Sneaker", ["sneakers", "SNEAKER"])] {
            let expected = Set(all.filter { $0.label == label }.map(\.id))
            #expect(!expected.isEmpty, "the bundled model calls some of the first 60 test images \(label)")
            for spelling in spellings {
                #expect(Set(try set.list(["--label", spelling]).map(\.id)) == expected, "\(spelling)")
            }
        }
        let unknown = try set.run(["list", "--label", "hat"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown label 'hat'"))
        for label in Self.labels { #expect(unknown.stderr.contains(label)) }
    }

    @Test func listFiltersSortsAndPages() throws {
        let set = try Imported(count: 30)
        defer { set.folder.remove() }
        let all = try set.list()
        #expect(all.count == 30)
        #expect(all.map(\.confidence) == all.map(\.confidence).sorted(by: >), "highest confidence first by default")
        #expect(try set.list(["--sort", "uncertain"]).map(\.confidence) == all.map(\.confidence).sorted())
        #expect(try set.list(["--sort", "id"]).map(\.id) == all.map(\.id).sorted())
        let middle = all.map(\.confidence).sorted()[15]
        #expect(try set.list(["--min-confidence", String(middle)]).count == all.filter { $0.confidence >= middle }.count)
        #expect(try set.list(["--max-confidence", String(middle)]).count == all.filter { $0.confidence <= middle }.count)
        #expect(try set.list(["--limit", "5", "--offset", "10"]).map(\.id) == all[10..<15].map(\.id))
        #expect(try set.list(["--since", "2000-01-01", "--until", "2999-01-01"]).count == 30)
        #expect(try set.list(["--until", "2000-01-01"]).isEmpty)
        #expect(try set.list(["--since", "1h"]).count == 30)
        // A folder takes the files in it and below it, never a folder whose name it begins.
        #expect(try set.list(["--folder", set.folder.path("images")]).count == 30)
        #expect(try set.list(["--folder", set.folder.path("images/")]).count == 30)
        #expect(try set.list(["--folder", set.folder.path("")]).count == 30)
        #expect(try set.list(["--folder", set.folder.path("imag")]).isEmpty)
        #expect(try set.list(["--folder", set.folder.path("images"), "--max-confidence", String(middle)]).count
                == all.filter { $0.confidence <= middle }.count)
        #expect(all.allSatisfy { $0.path?.hasPrefix(set.folder.path("images/")) == true && $0.format == "png"
                                 && $0.width == 28 && $0.sha256.count == 64 })

        let table = try set.run(["list", "--limit", "3"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 4, "a header and three rows:\n\(table.stdout)")
        #expect(lines[0].contains("ID") && lines[0].contains("LABEL") && lines[0].contains("PATH"))
        #expect(lines[1].contains(String(all[0].sha256.prefix(10))))
        #expect(table.stderr.contains("3 of 30 images shown"))

        for bad in [["--sort", "size"], ["--min-confidence", "150%"], ["--min-confidence", "-0.1"], ["--since", "last tuesday"],
                    ["--json", "--csv"], ["--min-confidence", "0.9", "--max-confidence", "0.1"]] {
            #expect(try set.run(["list"] + bad).status == 64, "\(bad)")
        }
        let unknownModel = try set.run(["list", "--model", "nonesuch"])
        #expect(unknownModel.status == 1)
        #expect(unknownModel.stderr.contains("nonesuch"))
    }

    @Test func csvAndJSONShapes() throws {
        let set = try Imported(count: 10)
        defer { set.folder.remove() }
        let columns = ["id", "sha256", "label", "label_source", "model_label", "confidence", "model", "recipe",
                       "classified_at", "imported_at", "width", "height", "format", "path", "path_state", "taken_at",
                       "colour", "colours", "colour_source"]
        let palette = ["black", "white", "grey", "beige", "brown", "red", "pink", "orange", "yellow", "green", "blue",
                       "navy", "purple", "multicolour"]
        for arguments in [["list", "--csv"], ["export"], ["export", "--format", "csv"]] {
            let result = try set.run(arguments)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 11, "\(arguments): header + 10 rows")
            #expect(lines.first.map(String.init) == columns.joined(separator: ","))
            for line in lines.dropFirst() {
                // The colours with their shares are quoted when they list several (the only quotes).
                let quoted = line.replacingOccurrences(of: #","[^"]*","#, with: ",colours,", options: .regularExpression)
                let fields = quoted.split(separator: ",", omittingEmptySubsequences: false)
                #expect(fields.count == columns.count, "\(line)")
                #expect(Self.labels.contains(String(fields[2])) && fields[3] == "model" && fields[4] == fields[2])
                #expect(Double(fields[5]).map { (0...1).contains($0) } == true)
                #expect(fields[8].hasSuffix("Z") && fields[8].count == 24, "ISO 8601 UTC: \(fields[8])")
                #expect(fields[7] == "fashion-mnist@1" && fields[14] == "present" && fields[15].isEmpty, "PNGs say nothing of when they were taken")
                #expect(palette.contains(String(fields[16])), "every imported image has a colour: \(line)")
                #expect(fields[18] == "measured", "nobody gave a colour: \(line)")
            }
        }
        let exported = try set.json([Listed].self, ["export", "--format", "json"])
        #expect(exported.map(\.id) == exported.map(\.id).sorted())
        #expect(Set(exported.map(\.id)) == Set(try set.list().map(\.id)))

        let all = try set.run(["export", "--all", "--format", "csv"])
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.first == "classification,image,sha256,run,model,recipe,label,confidence,classified_at,logits")
        #expect(lines.count == 11)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").last!.split(separator: " ").count == 10 })

        let file = set.folder.path("out.json")
        let written = try set.run(["export", "--format", "json", "--output", file])
        #expect(written.status == 0)
        let decoded = try JSONDecoder().decode([Listed].self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(decoded == exported)
        #expect(try set.run(["export", "--format", "xml"]).status == 64)
    }

    // MARK: - show, history, stats

    @Test func showFindsAnImageByIdHashAndPath() throws {
        let set = try Imported(count: 20)
        defer { set.folder.remove() }
        let image = try set.list(["--sort", "id"])[4]
        struct Shown: Decodable {
            struct Guess: Decodable { var label: String; var probability: Double }
            struct Path: Decodable { var path: String }
            var id: Int64; var sha256: String; var byte_size: Int; var width: Int; var height: Int
            var format: String; var label: String?; var confidence: Double?; var top: [Guess]
            var paths: [Path]; var history: [HistoryEntry]
        }
        for reference in [String(image.id), String(image.sha256.prefix(10)), image.sha256.prefix(10).uppercased(),
                          try #require(image.path)] {
            let shown = try set.json(Shown.self, ["show", "--json", reference])
            #expect(shown.id == image.id, "\(reference)")
            #expect(shown.sha256 == image.sha256)
            #expect(shown.label == image.label)
            #expect(shown.top.count == 3)
            #expect(shown.top.first?.label == image.label)
            #expect(abs((shown.top.first?.probability ?? 0) - image.confidence) < 1e-5)
            #expect(shown.top.map(\.probability) == shown.top.map(\.probability).sorted(by: >))
            #expect(shown.paths.map(\.path) == [image.path])
            #expect(shown.width == 28 && shown.format == "png" && shown.byte_size > 0)
            #expect(shown.history.count == 1)
        }

        let text = try set.run(["show", String(image.id)])
        #expect(text.status == 0)
        #expect(text.stdout.contains(image.sha256))
        #expect(text.stdout.contains(image.label))
        #expect(text.stdout.contains("top 3"))
        #expect(text.stdout.contains("import"))
        // Off a terminal the preview is gray shading, no escape codes.
        #expect(text.stdout.contains { "░▒▓█".contains($0) })
        #expect(!text.stdout.contains("\u{1B}["))
        let noPreview = try set.run(["show", "--no-preview", String(image.id)])
        #expect(!noPreview.stdout.contains { "░▒▓█".contains($0) })
    }

    @Test func unknownAndAmbiguousImagesExitOne() throws {
        let set = try Imported(count: 40)
        defer { set.folder.remove() }
        let all = try set.list()
        for command in ["show", "history"] {
            let missing = try set.run([command, "99999"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("image 99999"))
            #expect(missing.stderr.contains("not found"))
            #expect(missing.stdout.isEmpty)

            let nowhere = try set.run([command, set.folder.path("images/never-imported.png")])
            #expect(nowhere.status == 1)
            #expect(nowhere.stderr.contains("never-imported.png"))

            #expect(try set.run([command, "not-an-id!"]).status == 64)
            #expect(try set.run([command]).status == 64)
            #expect(try set.run([command, "1", "2"]).status == 64)
        }
        // Several images share a first hex letter: that prefix is ambiguous.
        let groups = Dictionary(grouping: all.map(\.sha256), by: { $0.prefix(1) })
        let shared = try #require(groups.first { $0.value.count > 1 && Character(String($0.key)).isLetter })
        let ambiguous = try set.run(["show", String(shared.key)])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("matches \(shared.value.count) images"))
        let nonesuch = try set.run(["reclassify", "--dry-run", "99999"])
        #expect(nonesuch.status == 1)
        #expect(try set.run(["show", "--help"]).stdout.contains("Exit status"))
    }

    @Test func historyMarksLabelChangesInTimeOrder() throws {
        let set = try Imported(count: 20)
        defer { set.folder.remove() }
        _ = try set.run(["reclassify", "--model", try set.weakModel(seed: 1), "--quiet"])
        _ = try set.run(["reclassify", "--model", try set.weakModel(seed: 2), "--quiet"])
        _ = try set.run(["reclassify", "--quiet"])
        for image in try set.list() {
            let history = try set.json([HistoryEntry].self, ["history", "--json", String(image.id)])
            #expect(history.count == 4)
            #expect(history.map(\.classification) == history.map(\.classification).sorted())
            #expect(history.map(\.run) == history.map(\.run).sorted())
            #expect(history.map(\.command) == ["import", "reclassify", "reclassify", "reclassify"])
            #expect(history.map(\.model).dropFirst().dropLast() == ["weak@seed1", "weak@seed2"])
            #expect(history.last?.label == image.label, "the last entry is the current label")
            for (previous, entry) in zip(history, history.dropFirst()) {
                #expect(entry.label_changed == (entry.label != previous.label))
            }
        }
        let text = try set.run(["history", "1"])
        #expect(text.status == 0)
        #expect(text.stdout.split(separator: "\n").filter { $0.contains("reclassify") }.count == 3)
    }

    @Test func statsCountsAndShares() throws {
        let set = try Imported(count: 25)
        defer { set.folder.remove() }
        struct Stats: Decodable {
            struct Label: Decodable { var label: String; var count: Int; var share: Double; var mean_confidence: Double? }
            var images: Int; var paths: Int; var classifications: Int; var failures: Int; var models: Int
            var runs: Int; var labels: [Label]
        }
        _ = try set.run(["reclassify", "--model", try set.weakModel(), "--quiet"])
        let stats = try set.json(Stats.self, ["stats", "--json"])
        #expect(stats.images == 25)
        #expect(stats.paths == 25)
        #expect(stats.classifications == 50)
        #expect(stats.models == 2)
        #expect(stats.runs == 2)
        #expect(stats.failures == 0)
        #expect(stats.labels.map(\.label) == Self.labels)
        #expect(stats.labels.map(\.count).reduce(0, +) == 25)
        #expect(abs(stats.labels.map(\.share).reduce(0, +) - 1) < 1e-9)
        let listed = try set.list()
        for label in stats.labels where label.count > 0 {
            let mine = listed.filter { $0.label == label.label }
            #expect(mine.count == label.count)
            #expect(abs(mine.map(\.confidence).reduce(0, +) / Double(mine.count) - (label.mean_confidence ?? -1)) < 1e-6)
        }
        let text = try set.run(["stats"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("images") && text.stdout.contains("Ankle boot"))
        let missing = try WardrobeProcess.run(["stats", "--db", set.folder.path("nope.sqlite")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.sqlite"))
    }
}
