internal import Catalogue
import Imaging

/// A reclassification's work on one stored image, on a worker thread: take the
/// tensor kept for it under the recipe (through the worker's own connection),
/// else prepare one from its thumbnail, and classify it with the one prepared model.
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
        for candidate in candidates {
            if stop() { break }
            switch tensor(of: candidate, reader: reader) {
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

    /// The image's tensor, and whether it was prepared here (so is to be kept).
    private func tensor(of candidate: ReclassificationCandidate, reader: RunReader)
        -> Result<([Float], prepared: Bool), Refusal> {
        do {
            if let kept = try keptTensor(of: candidate.image, reader: reader) { return .success((kept, false)) }
        } catch {
            return .failure(Refusal(message: "kept tensor: \(error)"))
        }
        do {
            guard let thumbnail = try reader.read({ try $0.thumbnail(of: candidate.image) }) else {
                return .failure(Refusal(message: "the image has no thumbnail"))
            }
            return .success((try processor.prepare(thumbnail: thumbnail, recipe: recipe).values, true))
        } catch {
            return .failure(Refusal(message: "stored thumbnail: \(error)"))
        }
    }

    /// The tensor an earlier run under this recipe kept for `image`, when it is one the
    /// recipe could have made (every value in 0...1); nil sends the image to its thumbnail,
    /// and the tensor prepared there replaces a kept one that was not.
    private func keptTensor(of image: ImageID, reader: RunReader) throws -> [Float]? {
        let keptFor = Recipe(name: recipe.name, version: recipe.version)
        guard let kept = try reader.read({ try $0.preparedTensor(of: image, recipe: keptFor) }),
              kept.count == ClothingClassifier.pixelsPerImage, kept.allSatisfy({ (0...1).contains($0) }) else { return nil }
        return kept
    }
}
