import CatalogueFixtures
import Foundation
import Testing

/// The loop the tool exists for, end to end through the CLI on real photos:
/// import training photos, a person labels 200 of them (`wardrobe label`),
/// `model train --corrections --from` the Fashion-MNIST-only model on a
/// schedule of about a minute on two cores, `reclassify --model` the new
/// file. The new model must be right more often on the validation photos
/// (never trained on), and the labelled images keep their labels.
@Suite(.serialized) struct LearningLoopTests {
    struct Evaluation: Decodable {
        struct Score: Decodable {
            var mappedAccuracy: Double
            var photos: Int
            enum CodingKeys: String, CodingKey { case mappedAccuracy = "mapped_accuracy", photos }
        }
        var recipes: [Score]
    }

    static let root = FileManager.default.currentDirectoryPath
    static let parent = root + "/Models/fashion-mnist-only.aimodel"
    static let map = root + "/bench/clothing-photos.map"
    /// Photos imported (in name order across folders: a fixed shuffle, file names being random) and labelled.
    static let imported = 400
    static let labelled = 200
    /// A fine-tune of about a minute on two cores: few Fashion-MNIST images, half of each epoch photos.
    static let schedule = ["--fashion", "2000", "--photo-share", "0.5", "--epochs", "4", "--learning-rate", "0.02",
                           "--seed", "1"]

    static var present: Bool { RealPhotos.train != nil && RealPhotos.validation != nil && ModelCommandTests.dataPresent }

    /// The folder's accepted labels by the map, "none" folders left out.
    static func accepted() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in try String(contentsOfFile: map, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), let colon = text.firstIndex(of: ":") else { continue }
            let labels = text[text.index(after: colon)...].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "none" }
            if !labels.isEmpty { result[String(text[..<colon])] = labels }
        }
        return result
    }

    func validationAccuracy(_ model: String) throws -> Double {
        let result = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--images", RealPhotos.validation!.path,
                                              "--map", Self.map, "--json"])
        #expect(result.status == 0, "evaluate \(model): \(result.stderr)")
        let score = try #require(try JSONDecoder().decode(Evaluation.self, from: Data(result.stdout.utf8)).recipes.first)
        #expect(score.photos > 250, "the mapped validation photos")
        return score.mappedAccuracy
    }

    @Test(.enabled(if: present, "../shared/data/clothing-photos (train and validation) or Fashion-MNIST absent (set WARDROBE_SHARED; make deps): skipped"))
    func labellingTwoHundredPhotosAndFineTuningOnThemRaisesValidationAccuracy() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("catalogue.sqlite")
        let accepted = try Self.accepted()
        let manager = FileManager.default
        let train = RealPhotos.train!.path
        var photos: [(path: String, folder: String)] = []
        for kind in accepted.keys {
            for name in try manager.contentsOfDirectory(atPath: "\(train)/\(kind)") where !name.hasPrefix(".") {
                photos.append(("\(train)/\(kind)/\(name)", kind))
            }
        }
        photos.sort { ($0.path as NSString).lastPathComponent < ($1.path as NSString).lastPathComponent }
        let chosen = Array(photos.prefix(Self.imported))

        // 1. Import, with the parent model.
        let imported = try WardrobeProcess.run(["import", "--db", db, "--model", Self.parent] + chosen.map(\.path))
        #expect(imported.status == 0, "import: \(imported.stderr)")

        // 2. A person labels 200: the folder's label; where a folder accepts several, the model's label
        // is confirmed when it is one of them, else the first is given.
        let list = try WardrobeProcess.run(["list", "--db", db, "--json"])
        let listed = try JSONDecoder().decode([ListedImage].self, from: Data(list.stdout.utf8))
        let modelLabel = Dictionary(listed.compactMap { entry in entry.path.map { ($0, entry.model_label) } }) { a, _ in a }
        var byLabel: [String: [String]] = [:]
        var confirmed: [String] = []
        for photo in chosen.prefix(Self.labelled) {
            let labels = accepted[photo.folder]!
            if labels.count > 1, let current = modelLabel[photo.path], labels.contains(current) {
                confirmed.append(photo.path)
            } else {
                byLabel[labels[0], default: []].append(photo.path)
            }
        }
        for (label, paths) in byLabel {
            let result = try WardrobeProcess.run(["label", "--db", db, label] + paths)
            #expect(result.status == 0, "label \(label): \(result.stderr)")
        }
        if !confirmed.isEmpty {
            let result = try WardrobeProcess.run(["label", "--db", db, "--confirm"] + confirmed)
            #expect(result.status == 0, "label --confirm: \(result.stderr)")
        }
        let personLabels = try JSONDecoder().decode([ListedImage].self, from: Data(
            WardrobeProcess.run(["list", "--db", db, "--corrected", "--json"]).stdout.utf8))
        #expect(personLabels.count == Self.labelled)

        // 3. Fine-tune on the corrections.
        let tuned = folder.path("tuned.aimodel")
        let started = Date()
        let training = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from", Self.parent,
                                                "--out", tuned] + Self.schedule)
        let seconds = Date().timeIntervalSince(started)
        #expect(training.status == 0, "train: \(training.stderr)")
        // The parent's score on the held-out corrections is said before training, to read the
        // per-epoch 'photos' column against, and again beside the new model's at the end.
        #expect(training.stderr.contains("before training, the model being fine-tuned labels "), "\(training.stderr)")
        #expect(training.stdout.contains("held-out photo accuracy ") && training.stdout.contains("(the parent's: "),
                "the summary, on stdout: \(training.stdout)")

        // 4. Re-run the catalogue with the new model.
        let reclassify = try WardrobeProcess.run(["reclassify", "--db", db, "--model", tuned])
        #expect(reclassify.status == 0, "reclassify: \(reclassify.stderr)")
        let after = try JSONDecoder().decode([ListedImage].self, from: Data(
            WardrobeProcess.run(["list", "--db", db, "--corrected", "--json"]).stdout.utf8))
        let before = Dictionary(personLabels.map { ($0.id, $0.label) }) { a, _ in a }
        #expect(after.count == Self.labelled)
        for image in after {
            #expect(image.label == before[image.id] && image.label_source == "person", "image \(image.id) keeps its label")
        }

        let parentAccuracy = try validationAccuracy(Self.parent)
        let tunedAccuracy = try validationAccuracy(tuned)
        print(String(format: "learning loop: %d labelled, fine-tune %.0f s, validation accuracy %.3f -> %.3f",
                     Self.labelled, seconds, parentAccuracy, tunedAccuracy))
        #expect(tunedAccuracy >= parentAccuracy + 0.05,
                "validation accuracy \(parentAccuracy) -> \(tunedAccuracy) after learning from \(Self.labelled) labels")
    }
}
