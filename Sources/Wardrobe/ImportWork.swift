import Catalogue
import Foundation
import Imaging
import Synchronization

/// The worker side of an import: files handed out one at a time to worker
/// threads, each of which reads, hashes and (for content not seen before)
/// decodes, thumbnails, prepares and classifies the file.
final class ImportWork: Sendable {
    struct Outcome: Sendable {
        enum Kind: Sendable {
            /// New content, ready to store.
            case new(NewImage, label: Int)
            /// Content the catalogue already holds.
            case known(ImageID)
            /// Content another worker of this import is storing.
            case sameAsPending(SHA256Digest)
            case failed(reason: String, sha256: SHA256Digest?)
        }
        var file: FoundFile
        var kind: Kind
    }

    private let files: [FoundFile]
    private let cataloguePath: String
    private let classifier: ClothingClassifier
    private let processor: ImageProcessor
    private let recipe: any PrepRecipe
    private let next = Atomic<Int>(0)
    private let interrupted = Atomic<Bool>(false)
    /// Hashes some worker of this import has taken on, so a duplicate in the
    /// same import is classified once.
    private let claimed = Mutex<Set<SHA256Digest>>([])

    init(files: [FoundFile], catalogue: String, classifier: ClothingClassifier,
         processor: ImageProcessor, recipe: any PrepRecipe) {
        self.files = files
        self.cataloguePath = catalogue
        self.classifier = classifier
        self.processor = processor
        self.recipe = recipe
    }

    var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// Runs on a worker thread until no file is left or the user interrupts.
    func drain(into queue: BoundedQueue<Outcome>) {
        // Each worker reads through its own connection; SQLite connections are single-threaded.
        let lookup = try? Catalogue(path: cataloguePath, mode: .readOnly)
        while true {
            if InterruptFlag.isRaised {
                interrupted.store(true, ordering: .relaxed)
                return
            }
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < files.count else { return }
            queue.push(Outcome(file: files[index], kind: process(files[index], lookup: lookup)))
        }
    }

    private func process(_ file: FoundFile, lookup: Catalogue?) -> Outcome.Kind {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(file.path)
        } catch {
            return .failed(reason: error.reason, sha256: nil)
        }
        let sha256 = try! SHA256Digest(bytes: SHA256.digest(bytes))
        if let known = try? lookup?.image(sha256: sha256) { return .known(known.id) }
        guard claimed.withLock({ $0.insert(sha256).inserted }) else { return .sameAsPending(sha256) }
        do {
            let processed = try processor.process(bytes: bytes, recipe: recipe)
            let classification = classifier.classify(tensor: processed.tensor.values)
            let image = NewImage(
                sha256: sha256, byteSize: bytes.count, width: processed.width, height: processed.height,
                format: processed.format.rawValue, thumbnail: processed.thumbnail, file: file.seen,
                classification: NewClassification(logits: classification.logits, label: classification.labelIndex,
                                                  confidence: Double(classification.confidence)))
            return .new(image, label: classification.labelIndex)
        } catch {
            return .failed(reason: error.reason, sha256: sha256)
        }
    }
}
