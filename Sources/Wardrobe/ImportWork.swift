import Catalogue
import Foundation
import Imaging

/// An import's work on one file, on a worker thread: read and hash it, and
/// unless the catalogue already holds that content, decode, thumbnail,
/// prepare and classify it. Whether the image is new is not decided here
/// but by the writer (`ImportWriter`), when it commits.
struct ImportWork: RunWork {
    struct Outcome: Sendable {
        enum Kind: Sendable {
            /// Decoded, thumbnailed and classified: ready for the writer.
            case prepared(NewImage)
            /// Only hashed: this worker's view of the catalogue already holds
            /// the content, so preparing it again would be wasted work.
            case hashed(SHA256Digest)
            case failed(reason: String)
        }
        var file: FoundFile
        var kind: Kind
    }

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipe: any PrepRecipe

    func process(_ file: FoundFile, reader: Catalogue) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(file.path)
        } catch {
            return Outcome(file: file, kind: .failed(reason: error.reason))
        }
        let sha256 = try! SHA256Digest(bytes: SHA256.digest(bytes))
        // A saving, not a decision: content this worker's view of the catalogue
        // holds is not prepared again. A failed look costs only the saving; the
        // writer decides either way when it commits.
        if (try? reader.containsImage(sha256: sha256)) == true {
            return Outcome(file: file, kind: .hashed(sha256))
        }
        do {
            let processed = try processor.process(bytes: bytes, recipe: recipe)
            let classification = classifier.classify(tensor: processed.tensor.values)
            let image = NewImage(
                sha256: sha256, byteSize: bytes.count, width: processed.width, height: processed.height,
                format: processed.formatSummary, thumbnail: processed.thumbnail, file: file.seen,
                classification: NewClassification(logits: classification.logits, label: classification.labelIndex,
                                                  confidence: Double(classification.confidence)))
            return Outcome(file: file, kind: .prepared(image))
        } catch {
            return Outcome(file: file, kind: .failed(reason: error.reason))
        }
    }
}

extension FoundFile {
    var seen: SeenFile { SeenFile(path: path, size: size, modificationTimeNanoseconds: modified) }
}
