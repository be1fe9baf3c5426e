import Catalogue
import Foundation
import Imaging

/// `wardrobe classify`: classifies files one by one and, when given a
/// catalogue, records each result there as a run of its own.
public struct FileClassifier {
    public struct Result: Sendable, Encodable {
        public var path: String
        public var sha256: String
        public var label: String
        public var confidence: Float
        public var top: [Candidate]
        public var recipe: String
    }

    public struct Candidate: Sendable, Encodable {
        public var label: String
        public var probability: Float
    }

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipe: any PrepRecipe

    public init(classifier: ClothingClassifier, recipe: any PrepRecipe, processor: ImageProcessor = ImageProcessor()) {
        self.classifier = classifier
        self.recipe = recipe
        self.processor = processor
    }

    /// Classifies every path; a file that fails is reported through
    /// `failure` and the rest go on. With a catalogue, the results are stored.
    public func classify(_ paths: [String], top: Int, saveTo catalogue: Catalogue?,
                         failure: (ImportReport.Failure) -> Void) throws -> [Result] {
        var results: [Result] = []
        var images: [NewImage] = []
        var failures: [ImportReport.Failure] = []
        for path in paths {
            do {
                let bytes = try ImageFile.read(path)
                let processed = try processor.process(bytes: bytes, recipe: recipe)
                let classification = classifier.classifyAndPublish(tensor: processed.tensor.values)
                let sha256 = try SHA256Digest(bytes: SHA256.digest(bytes))
                results.append(Result(
                    path: path, sha256: sha256.hex, label: classification.label, confidence: classification.confidence,
                    top: classification.top(top).map { Candidate(label: $0.label, probability: $0.probability) },
                    recipe: recipe.identity))
                var info = stat()
                let seen = stat(path, &info) == 0
                    ? SeenFile(path: URL(fileURLWithPath: path).standardizedFileURL.path, size: Int64(info.st_size),
                               modificationTimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
                    : nil
                images.append(NewImage(
                    sha256: sha256, byteSize: bytes.count, width: processed.width, height: processed.height,
                    format: processed.format.rawValue, thumbnail: processed.thumbnail, file: seen,
                    classification: NewClassification(logits: classification.logits, label: classification.labelIndex,
                                                      confidence: Double(classification.confidence))))
            } catch let error as ImagingError {
                let problem = ImportReport.Failure(path: path, reason: error.reason)
                failures.append(problem)
                failure(problem)
            }
        }
        if let catalogue {
            let model = try catalogue.registerModel(classifier.model.catalogueModel())
            let run = try catalogue.openRun(command: "classify", model: model,
                                            recipe: Recipe(name: recipe.name, version: recipe.version))
            if !images.isEmpty { try catalogue.insertImages(images, run: run) }
            for problem in failures { try catalogue.recordFailure(path: problem.path, reason: problem.reason, run: run) }
            try catalogue.closeRun(run, counts: RunCounts(seen: paths.count, imported: images.count,
                                                          classified: images.count, failed: failures.count))
        }
        return results
    }
}
