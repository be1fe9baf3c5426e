import Catalogue
import CatalogueFixtures
import Foundation
import Inference
import Testing
import Training

/// A model records every catalogue image it learned from, so that no figure counts them.
/// A fine-tune on more than about 14,400 labels listed them as hex in the header, which
/// then passed the reader's 1 MB limit: the training ran for its minutes and wrote nothing
/// any command could load. They are bytes in the data section now (the `U8` tensor
/// `learned_images`), 32 an image.
@Suite(.serialized) struct ManyLearnedImagesTests {
    let folder: PhotoFolder
    var db: String { folder.path("catalogue.sqlite") }

    init() throws {
        folder = try PhotoFolder()
    }

    /// `count` distinct SHA-256-shaped hashes (64 lowercase hex digits), one set for each `seed`.
    static func hashes(_ count: Int, seed: UInt64) -> Set<String> {
        Set((0..<count).map { Synthetic.digest($0, salt: seed).hex })
    }

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func aModelThatLearnedFrom200000ImagesLoadsAndTheCatalogueLeavesThemOut() throws {
        defer { folder.remove() }
        // A real model from a short training, written by the trainer's own writer with the
        // record of a fine-tune on 200,000 labels (a real one would take hours).
        var configuration = TrainingConfiguration()
        configuration.epochs = 1
        configuration.batchSize = 32
        configuration.trainingLimit = 64
        configuration.validationCount = 32
        configuration.testLimit = 100
        let result = Trainer(configuration: configuration)
            .train(training: try FashionMNIST(split: .train), test: try FashionMNIST(split: .test))
        let learned = Self.hashes(200_000, seed: 7)
        var record = TrainingRecord()
        record.learnedImages = learned
        let path = folder.path("learned.aimodel")
        try result.modelFile(name: "learned", version: "1", record: record).write(to: URL(fileURLWithPath: path))

        // It loads, its header far under the reader's limit, and records exactly those images.
        let file = try ModelFile(contentsOf: URL(fileURLWithPath: path))
        #expect(TrainingMetadata.learnedImages(in: file.description.training, digests: file.learnedImageDigests) == learned)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerLength = bytes.prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(headerLength < ModelFile.maximumHeaderBytes / 10, "header of \(headerLength) bytes")

        // Every command loads it; the catalogue adopts it and keeps the images it learned from.
        let use = try WardrobeProcess.run(["model", "use", "--db", db, path])
        #expect(use.status == 0, "\(use.stderr)")
        let database = try Database(path: db, mode: .readOnly)
        let kept = try database.rows("SELECT lower(hex(sha256)) FROM model_learned_images") { $0.text(0) }
        #expect(kept.count == learned.count)
        #expect(Set(kept) == learned)
        // A run registers its model again, and the catalogue keeps the same 200,000.
        let photos = ModelUseCommandTests.root + "/Fixtures/photos/dress"
        let photo = photos + "/" + (try FileManager.default.contentsOfDirectory(atPath: photos).sorted()[0])
        let classify = try WardrobeProcess.run(["classify", "--db", db, photo])
        #expect(classify.status == 0, "\(classify.stderr)")
        #expect(try database.scalarInt("SELECT count(*) FROM model_learned_images") == 200_000)
        let info = try WardrobeProcess.run(["model", "info", "--db", db])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.split(separator: "\n").contains { $0.hasPrefix("  learned_images ") && $0.hasSuffix(" 200000 images (their SHA-256 with --json), left out of its agreement figures") },
                "\(info.stdout)")

        // A file that lists them as hex in its header, as every file did before, is read as it was.
        var older = file
        older.learnedImageDigests = []
        let listed = Self.hashes(3, seed: 8)
        older.description.training["learned_images"] = String(decoding: try JSONEncoder().encode(listed.sorted()), as: UTF8.self)
        let olderPath = folder.path("older.aimodel")
        try older.write(to: URL(fileURLWithPath: olderPath))
        let useOlder = try WardrobeProcess.run(["model", "use", "--db", db, olderPath])
        #expect(useOlder.status == 0, "\(useOlder.stderr)")
        let keptOlder = try database.rows("""
            SELECT lower(hex(sha256)) FROM model_learned_images WHERE model_id = (SELECT max(id) FROM models)
            """) { $0.text(0) }
        #expect(Set(keptOlder) == listed)
    }
}
