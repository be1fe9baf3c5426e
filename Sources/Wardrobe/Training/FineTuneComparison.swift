internal import Catalogue
import Foundation
import Imaging

/// What a fine-tune would change, said before anyone adopts it: the parent's
/// and the new model's agreement with the labels neither learned from (the
/// same images for both, so the two figures compare), and, on images nobody
/// labelled, how many labels the new model changes and which way. Both
/// models run on the stored thumbnails, prepared as `reclassify` prepares
/// them; unlabelled images are a bounded, evenly spread sample, so a large
/// catalogue costs no more than `unlabelledLimit` images.
public struct FineTuneComparison: Sendable {
    public struct Transition: Sendable, Equatable {
        public var from: String
        public var to: String
        public var count: Int
    }

    /// Labels (one of the ten) neither model learned from, and how many of them each agrees with.
    public var labelled = 0
    public var parentAgreeing = 0
    public var modelAgreeing = 0
    /// Labels the new model (with its parent's) learned from: left out.
    public var learnedFrom = 0
    /// Images nobody labelled that both models labelled, of how many there are.
    public var unlabelledCompared = 0
    public var unlabelledTotal = 0
    public var changed = 0
    /// Label changes on those images, most frequent first.
    public var transitions: [Transition] = []
    /// Thumbnails that could not be prepared (left out of every count).
    public var failed = 0

    public static let unlabelledLimit = 2_000
}

extension OpenCatalogue {
    /// Compares a fine-tune's outcome (written to `path`) with its parent on this catalogue,
    /// with the recipe it was trained for (see `FineTuneComparison`).
    public func compareFineTune(_ outcome: ModelTraining.Outcome, at path: String, parent choice: ModelChoice,
                                recipe: any PrepRecipe,
                                unlabelledLimit: Int = FineTuneComparison.unlabelledLimit) throws -> FineTuneComparison {
        let parent = try ClothingClassifier(modelBytes: choice.modelBytes(), path: choice.path)
        let model = try ClothingClassifier(modelBytes: outcome.model.serialized(), path: path)
        let learned = outcome.record.learnedImages
        let processor = ImageProcessor()
        var comparison = FineTuneComparison()
        func labels(_ thumbnail: [UInt8]) -> (parent: Int, model: Int)? {
            guard let tensor = try? processor.prepare(thumbnail: thumbnail, recipe: recipe) else {
                comparison.failed += 1
                return nil
            }
            return (parent.classify(tensor: tensor.values).labelIndex, model.classify(tensor: tensor.values).labelIndex)
        }
        return try reading { store, _ in
            try store.forEachLabelledImage { image in
                guard !learned.contains(image.sha256.hex) else {
                    comparison.learnedFrom += 1
                    return
                }
                guard let pair = labels(image.thumbnail) else { return }
                comparison.labelled += 1
                if pair.parent == image.label { comparison.parentAgreeing += 1 }
                if pair.model == image.label { comparison.modelAgreeing += 1 }
            }
            let unlabelled = try store.reclassificationCandidates(ReclassificationFilter()).filter { $0.personLabel == nil }
            comparison.unlabelledTotal = unlabelled.count
            // Evenly spread over the image ids: the same sample every time.
            let step = max(1, Double(unlabelled.count) / Double(max(1, unlabelledLimit)))
            var counts: [[Int]: Int] = [:]
            for index in stride(from: 0.0, to: Double(unlabelled.count), by: step) {
                guard let thumbnail = try store.thumbnail(of: unlabelled[Int(index)].image),
                      let pair = labels(thumbnail) else { continue }
                comparison.unlabelledCompared += 1
                if pair.parent != pair.model { counts[[pair.parent, pair.model], default: 0] += 1 }
            }
            comparison.changed = counts.values.reduce(0, +)
            comparison.transitions = counts.map {
                FineTuneComparison.Transition(from: ClothingClassifier.labels[$0.key[0]], to: ClothingClassifier.labels[$0.key[1]],
                                              count: $0.value)
            }.sorted { ($1.count, $0.from, $0.to) < ($0.count, $1.from, $1.to) }
            return comparison
        }
    }
}
