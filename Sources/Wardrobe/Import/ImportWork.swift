internal import Catalogue
import Foundation
import Imaging

/// An import's work on a few files at a time, on a worker thread: read and
/// hash each, and unless the catalogue already holds that content, decode,
/// thumbnail and prepare it; then classify the prepared ones in one call of
/// the model. Whether an image is new is not decided here but by the writer
/// (`ImportWriter`), when it commits.
struct ImportWork: RunWork {
    struct Outcome: Sendable {
        enum Kind: Sendable {
            /// Decoded, thumbnailed and classified: ready for the writer.
            case prepared(NewImage)
            /// Only hashed: this worker's view of the catalogue already holds
            /// the content, so preparing it again would be wasted work.
            case hashed(SHA256Digest)
            /// `ofContent`: the failure is the content's as the walk saw it (the file, looked at
            /// after it failed, still had the walk's size and time, and it was read), so it can
            /// be kept with that size and time (see `ImportWriter.take`).
            case failed(reason: String, ofContent: Bool = true)
            /// Not read because the process or the system lacks open files or memory
            /// (`ImagingError.Kind.outOfResources`): no fault of the file's, so not a failure
            /// to keep; the writer stops the import (see `ImportWriter.take`).
            case outOfResources(reason: String)
        }
        var file: FoundFile
        var kind: Kind
    }

    /// Files a worker takes at a time (fewer toward the end of a run). The
    /// model's dense layers read their weights (1.6 MB, which each decode
    /// pushes out of the core's cache) once per call, so a call for eight
    /// images reads them once instead of eight times; small enough that a
    /// worker's take of 12-megapixel files ends soon after the other's.
    static let filesPerTake = 8

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipe: any PrepRecipe

    func process(_ file: FoundFile, reader: RunReader) -> Outcome {
        process([file], reader: reader, until: { false })[0]
    }

    /// One outcome per file, in the files' order (those begun before `stop`,
    /// when it turns true part-way). Each image's logits are those it gets
    /// alone: the runtime runs a batch image by image up to its first dense
    /// layer, whose rows (images) are each summed as alone.
    func process(_ files: ArraySlice<FoundFile>, reader: RunReader, until stop: () -> Bool) -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(files.count)
        // The prepared images, waiting for the model: where each one's outcome goes, and
        // their tensors back to back, as the model takes a batch.
        var waiting: [(outcome: Int, image: NewImage)] = []
        var tensors: [Float] = []
        for var file in files {
            if stop() { break }
            let step = prepare(file, reader: reader)
            // The bytes read are the walk's file's only if the path still holds it: a photo
            // renamed away and another renamed in between the walk and the read was kept with the
            // walk's size and time, so put back as it was it passed for unchanged, and its path
            // named the other photo for good. Kept without them, it is read again next time.
            if case .done(.failed) = step {} else if !file.isAsWalked { file.size = FoundFile.readAgain }
            switch step.keeping(file) {
            case .done(let kind):
                outcomes.append(Outcome(file: file, kind: kind))
            case .prepared(let image, let tensor):
                waiting.append((outcomes.count, image))
                tensors.append(contentsOf: tensor)
                outcomes.append(Outcome(file: file, kind: .prepared(image)))
            }
        }
        guard !waiting.isEmpty else { return outcomes }
        let classifications = tensors.withUnsafeBufferPointer { classifier.classify(tensors: $0, count: waiting.count) }
        for (index, ((outcome, image), classification)) in zip(waiting, classifications).enumerated() {
            guard var stored = classification.stored else {
                outcomes[outcome].kind = .failed(reason: Classification.notFiniteReason)
                continue
            }
            // Kept with the classification, so that `reclassify` under this recipe reads it.
            let size = ClothingClassifier.pixelsPerImage
            stored.preparedTensor = Array(tensors[index * size ..< (index + 1) * size])
            var image = image
            image.classification = stored
            outcomes[outcome].kind = .prepared(image)
        }
        return outcomes
    }

    private enum Step {
        case done(Outcome.Kind)
        /// Everything but the classification, and the tensor to classify.
        case prepared(NewImage, [Float])

        /// The step with its image recorded as `file` (its size and time as they are to be kept).
        func keeping(_ file: FoundFile) -> Step {
            guard case .prepared(var image, let tensor) = self else { return self }
            image.file = file.seen
            return .prepared(image, tensor)
        }
    }

    private func prepare(_ file: FoundFile, reader: RunReader) -> Step {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(file.path)
        } catch where error.kind == .outOfResources {
            return .done(.outOfResources(reason: error.reason))
        } catch {
            // A file that could not be opened or read (no permission, an I/O error) says nothing
            // of its content, and `chmod` leaves its time as it was: it is tried again each time.
            return .done(.failed(reason: error.reason, ofContent: error.kind != .unreadable && file.isAsWalked))
        }
        let sha256 = try! SHA256Digest(bytes: SHA256.digest(bytes))
        // A saving, not a decision: content this worker's view of the catalogue
        // holds is not prepared again. A failed look costs only the saving; the
        // writer decides either way when it commits.
        if (try? reader.read { try $0.containsImage(sha256: sha256) }) == true {
            return .done(.hashed(sha256))
        }
        do {
            let processed = try processor.processMeasuringColours(bytes: bytes, recipe: recipe)
            let image = NewImage(
                sha256: sha256, byteSize: bytes.count, width: processed.width, height: processed.height,
                format: processed.formatSummary, thumbnail: processed.thumbnail, file: file.seen,
                taken: processed.captureTime.map(TakenTime.init), colours: processed.colours.map(StoredColours.init),
                fingerprint: processed.fingerprint.map(StoredFingerprint.init))
            return .prepared(image, processed.tensor.values)
        } catch {
            return .done(.failed(reason: error.reason, ofContent: file.isAsWalked))
        }
    }
}

extension FoundFile {
    var seen: SeenFile { SeenFile(path: path, size: size, modificationTimeNanoseconds: modified) }

    /// A size no file has, kept for a path whose file changed while it was read: the next
    /// import finds it changed, and reads it again.
    static let readAgain: Int64 = -1

    /// True when the path is still a regular file of the size and time the walk saw. A file
    /// that failed otherwise failed as something else (gone, moved away, a folder or a file
    /// still being written for a moment), which its next state need not repeat.
    var isAsWalked: Bool {
        guard let now = SeenFile.now(at: path) else { return false }
        return now.size == size && now.modificationTimeNanoseconds == modified
    }
}
