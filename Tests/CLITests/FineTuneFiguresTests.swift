import Catalogue
import Foundation
import Testing
import Training

/// The figures `model train` prints, and those about the model it writes, say what their
/// words say on catalogues a person really makes: folders of photos that are also
/// imported, `none` labels, a thumbnail that no longer decodes. Each was once untrue:
/// the held-out photos were counted as Fashion-MNIST images, photos of `--photos` as
/// labels the model "did not learn from", images labelled `none` as "nobody labelled",
/// and a thumbnail that failed as a sampling.
@Suite(.serialized) struct FineTuneFiguresTests {
    static let root = FileManager.default.currentDirectoryPath
    static let parent = root + "/Models/fashion-mnist-only.aimodel"
    static let map = root + "/bench/clothing-photos.map"
    static let labels = ["dress": "dress", "longsleeve": "pullover", "outwear": "coat", "pants": "trouser",
                         "shirt": "shirt", "shoes": "sneaker", "t-shirt": "tee"]

    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }
    var photos: String { folder.path("photos") }

    init() throws {
        folder = try PhotoFolder()
        try FileManager.default.copyItem(atPath: Self.root + "/Fixtures/photos", toPath: photos)
    }

    func run(_ arguments: [String]) throws -> WardrobeProcess.Result {
        let result = try WardrobeProcess.run(arguments, environment: ["WARDROBE_DB": db])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// Each fixture photo's path, by folder.
    /// A copy of the bundled model as the parent (its rehearsal, where it is to be, not there
    /// yet), and the photos imported and labelled by kind: where the tests of a parent's
    /// rehearsal start.
    func labelledWithBundledParent() throws -> (parent: String, rehearsal: String) {
        let parent = folder.path("parent.aimodel"), rehearsal = folder.path("parent.rehearsal.safetensors")
        try FileManager.default.copyItem(atPath: Self.root + "/Models/clothing.aimodel", toPath: parent)
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let paths = try paths()
        for (kind, label) in Self.labels { _ = try run(["label", label] + paths[kind]!) }
        return (parent, rehearsal)
    }

    func paths() throws -> [String: [String]] {
        var paths: [String: [String]] = [:]
        for kind in try FileManager.default.contentsOfDirectory(atPath: photos) {
            paths[kind] = try FileManager.default.contentsOfDirectory(atPath: "\(photos)/\(kind)").sorted()
                .map { "\(photos)/\(kind)/\($0)" }
        }
        return paths
    }

    struct ModelEntry: Decodable { var name: String; var labelled_images: Int; var agreeing: Int; var learned_from: Int }
    struct Models: Decodable { var models: [ModelEntry] }

    /// A model trained on a folder of photos, that folder then imported and labelled: the model
    /// learned from those photos (all but the held-out ones), so its agreement leaves them out.
    /// It counted every one as a label it "did not learn from". The training's header counts the
    /// held-out photos beside the Fashion-MNIST images, not among them.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aModelTrainedOnPhotosLeavesThemOutOfItsAgreementOnceImported() throws {
        defer { folder.remove() }
        // The fixture photos' hashes hold none out: photo-like shirts beside them, some held out.
        try folder.writePhotos(30, width: 96, height: 128, firstSeed: 1, to: "photos/shirt")
        let tuned = folder.path("tuned.aimodel")
        let train = try run(["model", "train", "--photos", photos, "--map", Self.map, "--from", Self.parent,
                             "--limit", "64", "--epochs", "1", "--out", tuned])

        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let paths = try paths()
        for (kind, label) in Self.labels { _ = try run(["label", label] + paths[kind]!) }
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let labelled = try Self.labels.keys.flatMap { paths[$0]! }.map { try #require(try catalogue.image(path: $0)) }
        let learned = labelled.filter { $0.sha256.bytes[0] >= 26 }
        let heldOut = labelled.count - learned.count
        try #require(!learned.isEmpty && heldOut > 0, "the fixture photos are what the test assumes")

        let header = try #require(train.stderr.split(separator: "\n").first { $0.hasPrefix("training: ") }, "\(train.stderr)")
        #expect(header.contains("; 64 Fashion-MNIST images and \(heldOut) held-out photo\(heldOut == 1 ? "" : "s") are kept aside"),
                "\(header)")

        _ = try run(["reclassify", "--model", tuned, "--quiet"])
        let models = try JSONDecoder().decode(Models.self, from: Data(try run(["model", "list", "--json"]).stdout.utf8))
        let entry = try #require(models.models.first { $0.name == "tuned" })
        #expect(entry.learned_from == learned.count && entry.labelled_images == heldOut, "\(entry)")
        let info = try run(["model", "info", tuned]).stdout.split(separator: "\n")
        #expect(info.contains { $0.hasPrefix("  learned_images ") && $0.hasSuffix(" \(learned.count) images (their SHA-256 with --json), "
                                                                          + "left out of its agreement figures") }, "\(info)")
    }

    /// A `none` label and a thumbnail that no longer decodes among the images without a label:
    /// the line on what the new model changes names them for what they are. It said "images
    /// nobody labelled" of images a person labelled `none`, and "(a sample)" where every such
    /// image was drawn and one could not be prepared.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func theChangesLineNamesNoneLabelsAndDamagedThumbnailsForWhatTheyAre() throws {
        defer { folder.remove() }
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let paths = try paths()
        for kind in ["dress", "outwear", "pants", "t-shirt"] { _ = try run(["label", Self.labels[kind]!] + paths[kind]!) }
        _ = try run(["label", "none"] + paths["hat"]!)
        let unlabelled = paths["longsleeve"]! + paths["shirt"]! + paths["shoes"]! + paths["hat"]!
        let damaged = try #require(try Catalogue(path: db, mode: .readOnly).image(path: paths["shoes"]![0])).id.rawValue
        let damagedLabelled = try #require(try Catalogue(path: db, mode: .readOnly).image(path: paths["pants"]![0])).id.rawValue
        try Catalogue(path: db).database.execute("UPDATE images SET thumbnail = x'ffd8ffe000' WHERE id IN (\(damaged), \(damagedLabelled))")

        let train = try run(["model", "train", "--corrections", "--from", Self.parent, "--limit", "64", "--epochs", "1",
                             "--out", folder.path("tuned.aimodel")])
        let compared = unlabelled.count - 1
        #expect(train.stderr.contains("measuring what the new model changes on \(compared) of the \(unlabelled.count) "
                                      + "images nobody gave one of the ten labels"), "\(train.stderr)")
        #expect(train.stderr.contains("on \(compared) of the \(unlabelled.count) images nobody gave one of the ten labels "
                                      + "(1 whose thumbnail could not be prepared left out), the new model changes"),
                "\(train.stderr)")
        #expect(!train.stderr.contains("nobody labelled") && !train.stderr.contains("(a sample)"), "\(train.stderr)")
        // A labelled image whose thumbnail failed is neither learned nor compared, and the agreement line says so
        // (it said the model "learned from every label you gave").
        let agreement = try #require(train.stderr.split(separator: "\n").first { $0.hasPrefix("agreement") }, "\(train.stderr)")
        #expect(agreement == "agreement: nothing to measure, as the new model learned from every label you gave (6) but 1 whose "
                + "thumbnail could not be prepared; labels given from now on measure it", "\(agreement)")
    }

    struct Listed: Decodable { var id: Int64; var label: String; var model_label: String }
    struct Report: Decodable { var changed: Int }

    /// A fine-tune for another recipe than its parent's (`--prep fashion-mnist` from the bundled
    /// photo model): what it says of the parent is what the parent does in the catalogue, with its
    /// own recipe. The parent was given the new recipe's tensors, so its agreement and the labels
    /// the new model "changes" were not those the catalogue shows, nor what reclassify then found.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aFineTuneForAnotherRecipeComparesWithTheParentAsTheCatalogueRunsIt() throws {
        defer { folder.remove() }
        try folder.writePhotos(30, width: 96, height: 128, firstSeed: 1, to: "photos/shirt")
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let generated = try FileManager.default.contentsOfDirectory(atPath: photos + "/shirt").filter { !$0.hasPrefix("00") }
        _ = try run(["label", "shirt"] + generated.map { "\(photos)/shirt/\($0)" })

        let train = try run(["model", "train", "--corrections", "--from", Self.root + "/Models/clothing.aimodel",
                             "--prep", "fashion-mnist", "--limit", "64", "--epochs", "1", "--out", folder.path("tuned.aimodel")])
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let heldOut = try Set(generated.map { try #require(try catalogue.image(path: "\(photos)/shirt/\($0)")) }
            .filter { $0.sha256.bytes[0] < 26 }.map(\.id.rawValue))
        try #require(!heldOut.isEmpty, "some of the generated photos are held out")
        let listed = try JSONDecoder().decode([Listed].self, from: Data(try run(["list", "--json", "--corrected"]).stdout.utf8))
        let agreeing = listed.filter { heldOut.contains($0.id) && $0.model_label == $0.label }.count
        #expect(train.stderr.contains("agreement on the \(heldOut.count) labels neither model learned from "
                                      + "(\(generated.count - heldOut.count) it learned from left out): the parent agrees with \(agreeing) ("),
                "\(train.stderr)")

        let unlabelled = try JSONDecoder().decode([Listed].self, from: Data(try run(["list", "--json", "--uncorrected"]).stdout.utf8))
        let dry = try JSONDecoder().decode(Report.self, from: Data(try run(["reclassify", "--model", folder.path("tuned.aimodel"),
                                                                            "--dry-run", "--json"] + unlabelled.map { String($0.id) }).stdout.utf8))
        #expect(train.stderr.contains("on \(unlabelled.count) images nobody gave one of the ten labels, the new model changes \(dry.changed) labels"),
                "\(train.stderr)")
        #expect(train.stderr.contains("held-out photos (prepared with fashion-mnist@1, not its own photo@4) right"), "\(train.stderr)")
        #expect(train.stdout.contains("(the parent's: ") && train.stdout.contains(", given them prepared with fashion-mnist@1, not its own photo@4)"),
                "\(train.stdout)")
    }

    /// A parent whose rehearsal beside it was truncated (or swapped for another model's): the
    /// fine-tune rehearses none of its photos, and says so as a warning naming the file there.
    /// It said, among the info lines, that the rehearsal was "neither beside it" while a file was.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aParentsDamagedRehearsalIsAWarningNamingTheFile() throws {
        defer { folder.remove() }
        let parent = folder.path("parent.aimodel"), rehearsal = folder.path("parent.rehearsal.safetensors")
        _ = try run(["model", "train", "--photos", photos, "--map", Self.map, "--from", Self.parent,
                     "--limit", "64", "--epochs", "1", "--out", parent])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: rehearsal))
        try bytes.prefix(1000).write(to: URL(fileURLWithPath: rehearsal))
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        _ = try run(["label", "dress"] + (try paths())["dress"]!)

        let train = try run(["model", "train", "--corrections", "--from", parent, "--limit", "64", "--epochs", "1",
                             "--out", folder.path("tuned.aimodel")])
        let line = try #require(train.stderr.split(separator: "\n").first { $0.contains("rehearsing no photos") }, "\(train.stderr)")
        #expect(line.hasPrefix("warning: rehearsing no photos of the parent's, so what it learned from them may be forgotten: "),
                "\(line)")
        #expect(line.hasSuffix(": \(rehearsal) is another file (SHA-256 \(line.suffix(14).prefix(12))…)"), "\(line)")
    }

    /// A parent's rehearsal that is a link to nothing, or a loop of links: the fine-tune said
    /// 'it records no rehearsal and none is beside it', as of an empty place; it names the link.
    /// One image nobody labelled was 'on 1 images'.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aParentsRehearsalThatIsABrokenLinkIsNamedAsOne() throws {
        defer { folder.remove() }
        let (parent, rehearsal) = try labelledWithBundledParent()
        for (target, reason) in [(folder.path("gone.safetensors"), "a symbolic link to '\(folder.path("gone.safetensors"))', which is not there"),
                                 (rehearsal, "a symbolic link that leads back to itself (a loop of links)")] {
            try? FileManager.default.removeItem(atPath: rehearsal)
            try FileManager.default.createSymbolicLink(atPath: rehearsal, withDestinationPath: target)
            let train = try run(["model", "train", "--corrections", "--from", parent, "--limit", "64", "--epochs", "1",
                                 "--out", folder.path("tuned.aimodel")])
            let line = try #require(train.stderr.split(separator: "\n").first { $0.contains("rehearsing no photos") }, "\(train.stderr)")
            #expect(line == "rehearsing no photos of the parent's: \(rehearsal): \(reason)", "\(line)")
            // The one image left, the hat, takes the word in its singular: 'on 1 images' it said.
            #expect(train.stderr.contains("of the 1 image nobody gave one of the ten labels (the parent's answers"), "\(train.stderr)")
            #expect(train.stderr.contains("on 1 image nobody gave one of the ten labels, the new model changes"), "\(train.stderr)")
        }
    }

    /// A fine-tune calibrates on its parent's rehearsal's held-out photos beside the person's:
    /// its record said '0 held out (by file hash) for validation and calibration' beside a
    /// calibration on 257 photos. It says how many it calibrated on.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func theRecordSaysWhatTheFineTuneCalibratedOn() throws {
        defer { folder.remove() }
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let paths = try paths()
        for (kind, label) in Self.labels { _ = try run(["label", label] + paths[kind]!) }
        let tuned = folder.path("tuned.aimodel")
        let train = try run(["model", "train", "--corrections", "--from", Self.root + "/Models/clothing.aimodel",
                             "--limit", "64", "--epochs", "1", "--out", tuned])
        let rehearsed = try #require(train.stderr.split(separator: "\n").first { $0.hasPrefix("rehearsing the parent's ") },
                                     "\(train.stderr)")
        let heldOut = try #require(Int(rehearsed.split(separator: "(")[1].split(separator: ",")[1].split(separator: " ")[0]))
        let info = try run(["model", "info", tuned]).stdout
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("  photo_examples ") }, "\(info)")
        let person = try #require(Int(line.split(separator: ", ")[1].split(separator: " ")[0]), "\(line)")
        #expect(line.hasSuffix("held out (by file hash) for validation; calibrated on \(person + heldOut) held-out photos, "
                               + "the parent's rehearsal's among them"), "\(line)")
    }

    /// A parent's rehearsal of no photos said 'rehearsing the parent's 0 photos', and one of
    /// held-out photos alone left a record of '0 photos, balanced by label' and the person's
    /// examples '20% of the photo draws', where they were all of them. The first is no rehearsal,
    /// said why; the second is calibrated on, and the record says nothing was rehearsed.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aRehearsalOfNoLearnedPhotoIsNotSaidToBeRehearsed() throws {
        defer { folder.remove() }
        let (parent, rehearsal) = try labelledWithBundledParent()
        let tuned = folder.path("tuned.aimodel")
        let empty = Rehearsal(learned: LabelledTensors(), heldOut: LabelledTensors(), recipe: "photo@4")
        try Data(empty.serialized()).write(to: URL(fileURLWithPath: rehearsal))
        let train = try run(["model", "train", "--corrections", "--from", parent, "--limit", "64", "--epochs", "1", "--out", tuned])
        #expect(train.stderr.contains("\nrehearsing no photos of the parent's: \(rehearsal) holds no photos\n"), "\(train.stderr)")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Models/clothing.rehearsal.safetensors"))
        let bundled = try Rehearsal(bytes: Array(bytes))
        try Data(Rehearsal(learned: LabelledTensors(), heldOut: bundled.heldOut, recipe: bundled.recipe).serialized())
            .write(to: URL(fileURLWithPath: rehearsal))
        _ = try run(["model", "train", "--corrections", "--from", parent, "--limit", "64", "--epochs", "1", "--out", tuned])
        let info = try run(["model", "info", tuned]).stdout
        let keeping = try #require(info.split(separator: "\n").first { $0.hasPrefix("  keeping ") }, "\(info)")
        #expect(keeping.contains("no rehearsal of the parent's photos") && !keeping.contains("of the photo draws"), "\(keeping)")
    }

    /// One label (or a few), each held out by its hash: nothing of the person's to learn from.
    /// The fine-tune went on ("corrections: 0 to learn from (), 1 held out"), trained on
    /// Fashion-MNIST and the rehearsal alone, and wrote a model; it is refused, saying why.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func labelsThatAreAllHeldOutAreRefusedAsNothingToLearnFrom() throws {
        defer { folder.remove() }
        try folder.writePhotos(30, width: 96, height: 128, firstSeed: 1, to: "photos/shirt")
        _ = try run(["import", "--jobs", "1", "--quiet", photos])
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let heldOut = try FileManager.default.contentsOfDirectory(atPath: photos + "/shirt").map { "\(photos)/shirt/\($0)" }
            .filter { try #require(try catalogue.image(path: $0)).sha256.bytes[0] < 26 }
        try #require(!heldOut.isEmpty, "some of the generated photos are held out")
        _ = try run(["label", "shirt", heldOut[0]])

        let out = folder.path("tuned.aimodel")
        let train = try WardrobeProcess.run(["model", "train", "--corrections", "--from", Self.parent, "--limit", "64",
                                             "--epochs", "1", "--out", out], environment: ["WARDROBE_DB": db])
        #expect(train.status == 1)
        #expect(train.stderr.hasSuffix("error: catalogue \(db): the one image a person labelled or confirmed is held out to measure "
                                       + "the model (about 1 in 10 is, chosen by the SHA-256 of its file); label or confirm a few more, "
                                       + "so there is nothing to learn from\n"), "\(train.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
