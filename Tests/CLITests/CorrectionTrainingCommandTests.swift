import Catalogue
import Foundation
import Testing

/// `wardrobe model train --corrections`, `model use` and `model list` end to
/// end on a catalogue made by the real import of the real photos in
/// Fixtures/photos, labelled by `wardrobe label`.
@Suite(.serialized) struct CorrectionTrainingCommandTests {
    static let root = FileManager.default.currentDirectoryPath
    static let parent = root + "/Models/fashion-mnist-only.aimodel"
    static let bundled = root + "/Models/clothing.aimodel"
    /// The label a person gives each fixture folder (`hat` shows none of the ten).
    static let folderLabels = ["dress": "dress", "hat": "none", "longsleeve": "pullover", "outwear": "coat",
                               "pants": "trouser", "shirt": "shirt", "shoes": "sneaker", "t-shirt": "tee"]
    static let contractLabels = ["dress": "Dress", "longsleeve": "Pullover", "outwear": "Coat", "pants": "Trouser",
                                 "shirt": "Shirt", "shoes": "Sneaker", "t-shirt": "T-shirt/top"]

    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }

    init() throws {
        folder = try PhotoFolder()
    }

    /// Copies Fixtures/photos to `name`, imports it and returns each photo's path there, by folder.
    func importFixtures(as name: String) throws -> [String: [String]] {
        let source = Self.root + "/Fixtures/photos"
        try FileManager.default.copyItem(atPath: source, toPath: folder.path(name))
        let result = try WardrobeProcess.run(["import", "--db", db, "--jobs", "1", folder.path(name)])
        #expect(result.status == 0, "import: \(result.stderr)")
        var paths: [String: [String]] = [:]
        for kind in try FileManager.default.contentsOfDirectory(atPath: source) {
            paths[kind] = try FileManager.default.contentsOfDirectory(atPath: "\(source)/\(kind)").sorted()
                .map { folder.path("\(name)/\(kind)/\($0)") }
        }
        return paths
    }

    /// Labels every photo with its folder's label except those in `skipping`.
    func label(_ paths: [String: [String]], skipping: Set<String> = []) throws {
        for (kind, files) in paths {
            let chosen = files.filter { !skipping.contains($0) }
            guard !chosen.isEmpty else { continue }
            let result = try WardrobeProcess.run(["label", "--db", db, Self.folderLabels[kind]!] + chosen)
            #expect(result.status == 0, "label: \(result.stderr)")
        }
    }

    /// Expected examples per contract label: labelled photos (not `none`) whose hash does not hold them out.
    func expectedCounts(_ paths: [String: [String]], skipping: Set<String> = []) throws -> (learned: [String: Int], heldOut: Int) {
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        var learned: [String: Int] = [:]
        var heldOut = 0
        for (kind, files) in paths {
            guard let label = Self.contractLabels[kind] else { continue }
            for file in files where !skipping.contains(file) {
                let image = try #require(try catalogue.image(path: file))
                if image.sha256.bytes[0] < 26 { heldOut += 1 } else { learned[label, default: 0] += 1 }
            }
        }
        return (learned, heldOut)
    }

    /// A data source as the model file records it.
    struct Source: Decodable {
        var name: String
        var examples: Int
        var per_label: [String: Int]
    }

    func dataSources(_ model: String) throws -> [Source] {
        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let training = try #require(json["training"] as? [String: String])
        let sources = try #require(training["data_sources"])
        return try JSONDecoder().decode([Source].self, from: Data(sources.utf8))
    }

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func correctionsAreLearnedFromStoredThumbnailsOfTheCatalogueWardrobeDBNames() throws {
        defer { folder.remove() }
        let paths = try importFixtures(as: "photos")
        try label(paths)
        let expected = try expectedCounts(paths)
        // The originals are gone: only the thumbnails stored at import remain.
        try FileManager.default.removeItem(atPath: folder.path("photos"))

        let model = folder.path("tuned.aimodel")
        let train = try WardrobeProcess.run(["model", "train", "--corrections", "--from", Self.parent,
                                             "--limit", "256", "--epochs", "1", "--out", model],
                                            environment: ["WARDROBE_DB": db])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        let learnedTotal = expected.learned.values.reduce(0, +)
        #expect(train.stderr.contains("corrections in \(db): \(learnedTotal) to learn from"), "\(train.stderr)")
        #expect(train.stderr.contains("\(expected.heldOut) held out"), "\(train.stderr)")

        let sources = try dataSources(model)
        let corrections = try #require(sources.first { $0.name.hasPrefix("corrections \(db)") }, "\(sources)")
        #expect(corrections.examples == learnedTotal)
        #expect(corrections.per_label == expected.learned, "the hat labelled none is left out")
        #expect(corrections.name.hasSuffix("(photo@4)"))
    }

    /// Two corrections, neither held out by its hash: nothing to fit a temperature on,
    /// and the log says so (it used to say nothing of calibration at all).
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func withNoPhotoHeldOutTheLogSaysTheConfidenceIsNotCalibrated() throws {
        defer { folder.remove() }
        let paths = try importFixtures(as: "photos")
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let learned = try paths.values.joined().sorted().filter { try catalogue.image(path: $0)!.sha256.bytes[0] >= 26 }
        let result = try WardrobeProcess.run(["label", "--db", db, "Dress"] + learned.prefix(2))
        #expect(result.status == 0, "label: \(result.stderr)")

        let model = folder.path("tuned.aimodel")
        let train = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from", Self.parent,
                                             "--limit", "64", "--epochs", "1", "--out", model])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        #expect(train.stderr.contains("2 to learn from (Dress 2), 0 held out"), "\(train.stderr)")
        #expect(train.stderr.contains("calibration: none, as no photo was held out"), "\(train.stderr)")
        let info = try WardrobeProcess.run(["model", "info", model])
        #expect(!info.stdout.contains("temperature"), "\(info.stdout)")
    }

    /// Without --from, corrections fine-tune the model the catalogue uses, as they were
    /// made against it; before, they trained a fresh network for 15 epochs on all of
    /// Fashion-MNIST (about 20 minutes), throwing away what that model had learned.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func correctionsWithoutFromFineTuneTheCataloguesModel() throws {
        defer { folder.remove() }
        let paths = try importFixtures(as: "photos")
        try label(paths)
        let use = try WardrobeProcess.run(["model", "use", "--db", db, Self.parent])
        #expect(use.status == 0, "\(use.stderr)")
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let adopted = try #require(try catalogue.adoptedModel()?.model.flatMap { try catalogue.model($0) })

        let tuned = folder.path("tuned.aimodel")
        let train = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections",
                                             "--limit", "64", "--epochs", "1", "--out", tuned])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        #expect(train.stderr.contains("fine-tuning the catalogue's model, \(Self.parent)"), "\(train.stderr)")
        #expect(try WardrobeProcess.run(["model", "info", tuned]).stdout.contains("parent_sha256        \(adopted.sha256.hex)"))

        let fresh = folder.path("fresh.aimodel")
        let scratch = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from-scratch",
                                               "--limit", "64", "--epochs", "1", "--out", fresh])
        #expect(scratch.status == 0 && !scratch.stderr.contains("fine-tuning"), "\(scratch.stderr)")
        #expect(!(try WardrobeProcess.run(["model", "info", fresh]).stdout.contains("parent_sha256")))

        for arguments in [["--db", db, "--corrections", "--from", Self.parent, "--from-scratch"], ["--from-scratch"]] {
            let usage = try WardrobeProcess.run(["model", "train"] + arguments + ["--out", fresh])
            #expect(usage.status == 64 && usage.stderr.contains("--from-scratch"), "\(usage.stderr)")
        }
    }

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func correctionsCombineWithPhotosAndAPhotoThePersonLabelledIsLearnedOnce() throws {
        defer { folder.remove() }
        let paths = try importFixtures(as: "photos")
        let unlabelled = Set([paths["shirt"]![0], paths["t-shirt"]![1], paths["pants"]![0]])
        try label(paths, skipping: unlabelled)
        let expected = try expectedCounts(paths, skipping: unlabelled)
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let unlabelledLearned = try unlabelled.filter { try catalogue.image(path: $0)!.sha256.bytes[0] >= 26 }.count

        let model = folder.path("tuned.aimodel")
        let train = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from", Self.parent,
                                             "--photos", Self.root + "/Fixtures/photos",
                                             "--map", Self.root + "/bench/clothing-photos.map",
                                             "--limit", "256", "--epochs", "1", "--out", model])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        let sources = try dataSources(model)
        let corrections = try #require(sources.first { $0.name.hasPrefix("corrections") })
        let photos = try #require(sources.first { $0.name.hasPrefix("photos") })
        #expect(corrections.per_label == expected.learned)
        // The folder photos a person labelled in the catalogue count only as corrections.
        #expect(photos.examples == unlabelledLearned, "\(sources)")
        #expect(train.stderr.contains("left to the label a person gave them"), "\(train.stderr)")
    }

    @Test func correctionsNeedALabelledImageAndDbNeedsCorrections() throws {
        defer { folder.remove() }
        let imported = try importFixtures(as: "photos")
        let none = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from", Self.parent,
                                            "--limit", "64", "--epochs", "1", "--out", folder.path("never.aimodel")])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no image is labelled with one of the ten labels or confirmed"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("never.aimodel")))

        // Labelled, but only as none: that is said, not "no image is labelled".
        let first = try #require(imported.values.flatMap { $0 }.sorted().first)
        #expect(try WardrobeProcess.run(["label", "--db", db, "none", first]).status == 0)
        let onlyNone = try WardrobeProcess.run(["model", "train", "--db", db, "--corrections", "--from", Self.parent,
                                                "--limit", "64", "--epochs", "1", "--out", folder.path("never.aimodel")])
        #expect(onlyNone.status == 1)
        #expect(onlyNone.stderr.contains("a none label is not learned from"), "\(onlyNone.stderr)")
        #expect(!onlyNone.stderr.contains("labelled or confirmed by a person yet"), "\(onlyNone.stderr)")

        let missing = try WardrobeProcess.run(["model", "train", "--db", folder.path("nowhere.sqlite"), "--corrections",
                                               "--out", folder.path("never.aimodel")])
        #expect(missing.status != 0 && missing.stderr.contains("nowhere.sqlite"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("nowhere.sqlite")), "no catalogue is made")

        let usage = try WardrobeProcess.run(["model", "train", "--db", db, "--out", folder.path("never.aimodel")])
        #expect(usage.status == 64 && usage.stderr.contains("--db needs --corrections"), "\(usage.stderr)")
    }

    /// Once crashed the trainer (a batch shared by more threads than it held).
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func moreThreadsThanImagesIsAClearErrorNeverACrash() throws {
        defer { folder.remove() }
        let usage = try WardrobeProcess.run(["model", "train", "--limit", "3", "--threads", "4", "--out", folder.path("a.aimodel")])
        #expect(usage.status == 64, "\(usage.stderr)")
        #expect(usage.stderr.contains("--threads 4 is more than the 3 images of --limit 3"), "\(usage.stderr)")

        let tiny = try WardrobeProcess.run(["model", "train", "--from", Self.parent, "--fashion", "1", "--threads", "2",
                                            "--epochs", "1", "--out", folder.path("b.aimodel")])
        #expect(tiny.status == 1, "\(tiny.stderr)")
        #expect(tiny.stderr.contains("1 training examples per epoch cannot be shared by 2 threads"), "\(tiny.stderr)")

        // As many threads as images works, and so does a limit below the default threads.
        for arguments in [["--limit", "3", "--threads", "3"], ["--limit", "1"]] {
            let ok = try WardrobeProcess.run(["model", "train", "--epochs", "1", "--out", folder.path("c.aimodel")] + arguments)
            #expect(ok.status == 0, "\(arguments): \(ok.stderr)")
            #expect(!ok.stderr.contains("nan"), "\(arguments): \(ok.stderr)")
        }
    }
}
