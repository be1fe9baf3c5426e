internal import Catalogue
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

    /// Classifies every path, in order; a file that fails is reported through
    /// `failure` and the rest go on. With a catalogue, the results are stored
    /// as a run of their own.
    func classify(_ paths: [String], top: Int, saveTo catalogue: (any CatalogueStore)?,
                         failure: (ImportReport.Failure) -> Void) throws -> [Result] {
        let work = ClassifyWork(classifier: classifier, processor: processor, recipe: recipe, top: top)
        guard let catalogue else {
            // Nothing to record: no run, so no engine; the same work, on this thread.
            return paths.compactMap { path in
                switch work.classify(path) {
                case .classified(let result, _): return result
                case .failed(let problem): failure(problem); return nil
                }
            }
        }
        try catalogue.recordColourRuleBeforeMeasuring()
        return try withoutActuallyEscaping(failure) { failure in
            var writer = ClassifyWriter(catalogue: catalogue, failure: failure)
            // One worker: files are classified one by one, in order, so the
            // published result is the last file's.
            _ = try RunEngine(catalogue: catalogue, settings: RunEngine.Settings(jobs: 1, batchSize: 64)).run(
                paths, work: work, writer: &writer,
                recording: RunEngine.Recording(command: "classify", model: classifier.model,
                                               recipe: Recipe(name: recipe.name, version: recipe.version)))
            return writer.results
        }
    }
}
