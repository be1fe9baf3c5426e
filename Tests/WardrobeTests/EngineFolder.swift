import Catalogue
import Foundation
import Imaging
import Synchronization
import Training
@testable import Wardrobe

/// A temporary folder of Fashion-MNIST test images as PNG files, in
/// `images/` (`image-000.png`, ...), and a catalogue beside them.
struct EngineFolder {
    let root: URL
    /// The image files, in name order.
    let images: [String]

    init(fashionImages count: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-engine-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let test = try FashionMNIST(split: .test)
        images = try (0..<count).map { index in
            let bitmap = Bitmap(width: 28, height: 28, channels: 1, pixels: Array(test.image(index)))
            let path = folder.appendingPathComponent(String(format: "image-%03d.png", index)).path
            try Data(try PNGEncoder().encode(bitmap)).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    func catalogue() throws -> Catalogue { try Catalogue(path: path("catalogue.sqlite")) }

    func remove() { try? FileManager.default.removeItem(at: root) }

    static func classifier() throws -> ClothingClassifier {
        try ClothingClassifier(modelAt: FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel")
    }

    func importOptions(batchSize: Int) throws -> ImportOptions {
        ImportOptions(paths: [path("images")], jobs: 2, recipe: try PrepRecipes.named("fashion-mnist"), batchSize: batchSize)
    }

    static func recording() throws -> RunEngine.Recording {
        RunEngine.Recording(command: "test", model: try classifier().model, recipe: Recipe(name: "fashion-mnist", version: 1))
    }
}

/// Real per-item work for engine tests: decode an image file, prepare it
/// and classify it; counts how many items it took and how many it is on.
struct DecodeAndClassify: RunWork {
    struct Outcome: Sendable {
        var path: String
        var image: NewImage?
    }

    final class Activity: Sendable {
        let running = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
    }

    let classifier: ClothingClassifier
    let activity = Activity()

    func process(_ path: String, reader: RunReader) -> Outcome {
        activity.calls.add(1, ordering: .relaxed)
        activity.running.add(1, ordering: .relaxed)
        defer { activity.running.subtract(1, ordering: .relaxed) }
        guard let processed = try? ImageProcessor().process(contentsOf: path, recipe: try PrepRecipes.named("fashion-mnist"))
        else { return Outcome(path: path, image: nil) }
        let result = classifier.classify(tensor: processed.tensor.values)
        // Unique per file, which is all the catalogue asks of it here.
        var name = Array(path.utf8.suffix(32))
        name += [UInt8](repeating: 0, count: 32 - name.count)
        let image = NewImage(
            sha256: try! SHA256Digest(bytes: name), byteSize: 0, width: processed.width, height: processed.height,
            format: processed.format.rawValue, thumbnail: processed.thumbnail,
            file: SeenFile(path: path, size: 0, modificationTimeNanoseconds: 0),
            classification: NewClassification(logits: result.logits, label: result.labelIndex,
                                              confidence: Double(result.confidence)))
        return Outcome(path: path, image: image)
    }
}

/// Stores each decoded image with its classification, in batches. An
/// image whose path is in `unstorable` is given a negative width, which the
/// catalogue's CHECK constraint refuses.
struct ImageWriter: RunWriter {
    let catalogue: Catalogue
    var unstorable: Set<String> = []
    private(set) var taken = 0
    private(set) var stored = 0
    private var batch: [NewImage] = []

    init(catalogue: Catalogue, unstorable: Set<String> = []) {
        self.catalogue = catalogue
        self.unstorable = unstorable
    }

    var pending: Int { batch.count }
    var written: RunCounts { RunCounts(imported: stored, classified: stored) }

    mutating func take(_ outcome: DecodeAndClassify.Outcome, run: RunID?) throws {
        taken += 1
        guard var image = outcome.image else { return }
        if unstorable.contains(outcome.path) { image.width = -1 }
        batch.append(image)
    }

    mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws {
        if let run, !batch.isEmpty {
            let after = RunCounts(imported: stored + batch.count, classified: stored + batch.count)
            try catalogue.writeBatch(of: run) { writes in
                try writes.insertImages(batch, known: .isClassifiedAgain)
                return counts(after)
            }
            stored += batch.count
        }
        batch.removeAll()
    }
}
