internal import Catalogue
import Imaging

/// A reclassification's work on one stored image, on a worker thread: read
/// its thumbnail through the worker's own connection, prepare it with the
/// recipe and classify it with the one prepared model.
struct ReclassifyWork: RunWork {
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
    static let imagesPerTake = 16

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipe: any PrepRecipe

    /// One image at a time through the model: on this runtime a batched call
    /// is no faster per image (measured: about 10% slower at 32 images).
    func process(_ candidate: ReclassificationCandidate, reader: any CatalogueStore) -> Outcome {
        do {
            guard let thumbnail = try reader.thumbnail(of: candidate.image) else {
                return Outcome(candidate: candidate, result: .failed("the image has no thumbnail"))
            }
            let tensor = try processor.prepare(thumbnail: thumbnail, recipe: recipe)
            guard let stored = classifier.classify(tensor: tensor.values).stored else {
                return Outcome(candidate: candidate, result: .failed(Classification.notFiniteReason))
            }
            return Outcome(candidate: candidate, result: .classified(stored))
        } catch {
            return Outcome(candidate: candidate, result: .failed("stored thumbnail: \(error)"))
        }
    }
}
