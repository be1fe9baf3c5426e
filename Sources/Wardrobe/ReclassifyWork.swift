import Catalogue
import Foundation
import Imaging
import Synchronization

/// The worker side of a reclassification: the selected images handed out in
/// small chunks to worker threads, each of which reads the thumbnails through
/// its own read-only connection, prepares them with the recipe and
/// classifies them with the one prepared model.
final class ReclassifyWork: Sendable {
    struct Outcome: Sendable {
        var candidate: ReclassificationCandidate
        var result: Result
        enum Result: Sendable {
            case classified(NewClassification)
            case failed(String)
        }
    }

    /// Images a worker takes at a time: few enough to keep every worker busy
    /// to the end, enough that handing out and queueing cost nothing.
    static let chunkSize = 16

    private let candidates: [ReclassificationCandidate]
    private let cataloguePath: String
    private let classifier: ClothingClassifier
    private let processor: ImageProcessor
    private let recipe: any PrepRecipe
    private let next = Atomic<Int>(0)
    private let interrupted = Atomic<Bool>(false)

    init(candidates: [ReclassificationCandidate], catalogue: String, classifier: ClothingClassifier,
         processor: ImageProcessor, recipe: any PrepRecipe) {
        self.candidates = candidates
        self.cataloguePath = catalogue
        self.classifier = classifier
        self.processor = processor
        self.recipe = recipe
    }

    var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// Runs on a worker thread until every chunk is taken or the user interrupts.
    func drain(into queue: BoundedQueue<[Outcome]>) {
        let reader: Catalogue
        do {
            reader = try Catalogue(path: cataloguePath, mode: .readOnly)
        } catch {
            // Without a connection this worker fails its share, visibly, rather than hang.
            while let chunk = takeChunk() {
                queue.push(chunk.map { Outcome(candidate: $0, result: .failed("cannot read the catalogue: \(error)")) })
            }
            return
        }
        while let chunk = takeChunk() {
            queue.push(chunk.map { Outcome(candidate: $0, result: classify($0, reader: reader)) })
        }
    }

    /// One image at a time through the model: on this runtime a batched call
    /// is no faster per image (measured: about 10% slower at 32 images).
    private func classify(_ candidate: ReclassificationCandidate, reader: Catalogue) -> Outcome.Result {
        do {
            guard let thumbnail = try reader.thumbnail(of: candidate.image) else { return .failed("the image has no thumbnail") }
            let tensor = try processor.prepare(thumbnail: thumbnail, recipe: recipe)
            let result = classifier.classify(tensor: tensor.values)
            return .classified(NewClassification(logits: result.logits, label: result.labelIndex,
                                                 confidence: Double(result.confidence)))
        } catch {
            return .failed("stored thumbnail: \(error)")
        }
    }

    private func takeChunk() -> ArraySlice<ReclassificationCandidate>? {
        if InterruptFlag.isRaised {
            interrupted.store(true, ordering: .relaxed)
            return nil
        }
        let start = next.add(ReclassifyWork.chunkSize, ordering: .relaxed).oldValue
        guard start < candidates.count else { return nil }
        return candidates[start..<min(candidates.count, start + ReclassifyWork.chunkSize)]
    }
}
