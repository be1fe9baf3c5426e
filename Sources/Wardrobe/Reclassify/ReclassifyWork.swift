internal import Catalogue
import Imaging

/// A reclassification's work on one stored image, on a worker thread: take the
/// tensor kept for it under the recipe, else prepare one from its thumbnail (both read
/// for a whole take at once, `RunReader`), and classify it with the one prepared model.
struct ReclassifyWork: RunWork {
    struct Outcome: Sendable {
        var candidate: ReclassificationCandidate
        var result: Result
        enum Result: Sendable {
            /// The classification, with the tensor to keep when it was prepared here.
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

    func process(_ candidate: ReclassificationCandidate, reader: RunReader) -> Outcome {
        process([candidate], reader: reader, until: { false })[0]
    }

    /// One outcome per image, in the images' order (those begun before `stop`), the tensors
    /// classified in one call of the model: its dense layers then read their weights once for
    /// the take, as import's do. Each image's logits are those it gets alone.
    func process(_ candidates: ArraySlice<ReclassificationCandidate>, reader: RunReader,
                 until stop: () -> Bool) -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(candidates.count)
        var waiting: [(outcome: Int, keeps: Bool)] = []
        var tensors: [Float] = []
        let held = read(candidates.map(\.image), reader: reader)
        for candidate in candidates {
            if stop() { break }
            switch tensor(of: candidate.image, held) {
            case .success(let (tensor, prepared)):
                waiting.append((outcomes.count, prepared))
                tensors.append(contentsOf: tensor)
                outcomes.append(Outcome(candidate: candidate, result: .failed("")))
            case .failure(let reason):
                outcomes.append(Outcome(candidate: candidate, result: .failed(reason.message)))
            }
        }
        guard !waiting.isEmpty else { return outcomes }
        let size = ClothingClassifier.pixelsPerImage
        let classifications = tensors.withUnsafeBufferPointer { classifier.classify(tensors: $0, count: waiting.count) }
        for (index, ((outcome, keeps), classification)) in zip(waiting, classifications).enumerated() {
            guard var stored = classification.stored else {
                outcomes[outcome].result = .failed(Classification.notFiniteReason)
                continue
            }
            if keeps { stored.preparedTensor = Array(tensors[index * size ..< (index + 1) * size]) }
            outcomes[outcome].result = .classified(stored)
        }
        return outcomes
    }

    private struct Refusal: Error { let message: String }

    /// What the catalogue holds for a take's images: the tensors kept under the recipe (those
    /// it could have made: every value in 0...1), and the thumbnails of the others; or why
    /// they could not be read.
    private struct Stored {
        var kept: Result<[ImageID: [Float]], Refusal>
        var thumbnails: Result<[ImageID: [UInt8]], Refusal>
    }

    /// Two statements for the take, not two per image: on a server each is a round trip,
    /// through a connection the process's workers share.
    private func read(_ images: [ImageID], reader: RunReader) -> Stored {
        let keptFor = Recipe(name: recipe.name, version: recipe.version)
        let kept = Result { () throws(Refusal) -> [ImageID: [Float]] in
            do {
                return try reader.read { try $0.preparedTensors(of: images, recipe: keptFor) }.filter { _, tensor in
                    tensor.count == ClothingClassifier.pixelsPerImage && tensor.allSatisfy { (0...1).contains($0) }
                }
            } catch {
                throw Refusal(message: "kept tensor: \(error)")
            }
        }
        let unkept = images.filter { (try? kept.get())?[$0] == nil }
        let thumbnails = Result { () throws(Refusal) -> [ImageID: [UInt8]] in
            do {
                return try reader.read { try $0.thumbnails(of: unkept) }
            } catch {
                throw Refusal(message: "stored thumbnail: \(error)")
            }
        }
        return Stored(kept: kept, thumbnails: thumbnails)
    }

    /// The image's tensor, and whether it was prepared here (so is to be kept). A tensor kept
    /// that the recipe could not have made sends the image to its thumbnail, and the tensor
    /// prepared there replaces it.
    private func tensor(of image: ImageID, _ held: Stored) -> Result<([Float], prepared: Bool), Refusal> {
        Result { () throws(Refusal) -> ([Float], prepared: Bool) in
            if let kept = try held.kept.get()[image] { return (kept, false) }
            guard let thumbnail = try held.thumbnails.get()[image] else { throw Refusal(message: "the image has no thumbnail") }
            do {
                return (try processor.prepare(thumbnail: thumbnail, recipe: recipe).values, true)
            } catch {
                throw Refusal(message: "stored thumbnail: \(error)")
            }
        }
    }
}
