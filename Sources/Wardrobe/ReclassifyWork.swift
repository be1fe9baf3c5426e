import Catalogue
import Foundation
import Imaging
import Synchronization

/// The worker side of a reclassification: the selected images handed out in
/// small chunks to worker threads, each of which reads the thumbnails through
/// its own read-only connection, prepares them with the recipe and
/// classifies the chunk in one batched call of the prepared model.
final class ReclassifyWork: Sendable {
    struct Outcome: Sendable {
        var candidate: ReclassificationCandidate
        var result: Result
        enum Result: Sendable {
            case classified(NewClassification)
            case failed(String)
        }
    }

    /// Images per classify call: large enough for the batched kernels, small
    /// enough to keep every worker busy to the end.
    static let chunkSize = 32

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
        defer { queue.finishProducing() }
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
        var tensors: [Float] = []
        tensors.reserveCapacity(ReclassifyWork.chunkSize * PreparedTensor.count)
        while let chunk = takeChunk() {
            tensors.removeAll(keepingCapacity: true)
            var outcomes: [Outcome] = []
            var prepared: [Int] = []  // indexes into outcomes of images with a tensor
            for candidate in chunk {
                do {
                    guard let thumbnail = try reader.thumbnail(of: candidate.image) else {
                        outcomes.append(Outcome(candidate: candidate, result: .failed("the image has no thumbnail")))
                        continue
                    }
                    let tensor = try processor.prepare(thumbnail: thumbnail, recipe: recipe)
                    tensors += tensor.values
                    prepared.append(outcomes.count)
                    outcomes.append(Outcome(candidate: candidate, result: .failed("")))
                } catch {
                    outcomes.append(Outcome(candidate: candidate, result: .failed("stored thumbnail: \(error)")))
                }
            }
            if !prepared.isEmpty {
                let results = tensors.withUnsafeBufferPointer { classifier.classify(tensors: $0, count: prepared.count) }
                for (index, result) in zip(prepared, results) {
                    outcomes[index].result = .classified(NewClassification(
                        logits: result.logits, label: result.labelIndex, confidence: Double(result.confidence)))
                }
            }
            queue.push(outcomes)
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
