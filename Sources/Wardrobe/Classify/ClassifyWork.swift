internal import Catalogue
import Files
import Foundation
import Imaging

/// `wardrobe classify`'s work on one file: read, prepare and classify it,
/// publishing the result to the classifier's observers, and make the image
/// a catalogue would store.
struct ClassifyWork: RunWork {
    enum Outcome: Sendable {
        case classified(FileClassifier.Result, NewImage)
        case failed(ImportReport.Failure)
    }

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipe: any PrepRecipe
    /// How many of the most likely labels each result lists.
    let top: Int

    /// Needs nothing from the catalogue.
    func process(_ path: String, reader: RunReader) -> Outcome {
        classify(path)
    }

    func classify(_ path: String) -> Outcome {
        do {
            let bytes = try ImageFile.read(path)
            let processed = try processor.processMeasuringColours(bytes: bytes, recipe: recipe)
            let classification = classifier.classifyAndPublish(tensor: processed.tensor.values)
            guard let stored = classification.stored else {
                return .failed(ImportReport.Failure(path: path, reason: Classification.notFiniteReason))
            }
            let sha256 = try! SHA256Digest(bytes: SHA256.digest(bytes))
            let result = FileClassifier.Result(
                path: path, sha256: sha256.hex, label: classification.label, confidence: classification.confidence,
                top: classification.top(top).map { FileClassifier.Candidate(label: $0.label, probability: $0.probability) },
                recipe: recipe.identity)
            var info = stat()
            let seen = stat(path, &info) == 0
                ? SeenFile(path: PathName.absolute(path), size: Int64(info.st_size),
                           modificationTimeNanoseconds: FileTime.nanoseconds(info.st_mtim))
                : nil
            let image = NewImage(
                sha256: sha256, byteSize: bytes.count, width: processed.width, height: processed.height,
                format: processed.formatSummary, thumbnail: processed.thumbnail, file: seen,
                classification: stored, taken: processed.captureTime.map(TakenTime.init),
                colours: processed.colours.map(StoredColours.init),
                fingerprint: processed.fingerprint.map(StoredFingerprint.init))
            return .classified(result, image)
        } catch {
            return .failed(ImportReport.Failure(path: path, reason: error.reason))
        }
    }
}
