internal import Catalogue
import Foundation
import Imaging

/// What a fine-tune would change, said before anyone adopts it: the parent's
/// and the new model's agreement with the labels neither learned from (the
/// same images for both, so the two figures compare; both models run on the
/// stored thumbnails, prepared as `reclassify` prepares them, each with its own
/// recipe), and, on the
/// images nobody labelled that the fine-tune prepared (a bounded sample:
/// `ModelTraining.UnlabelledLabels`), how many labels the new model changes
/// and which way.
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
    /// Thumbnails of labelled images that could not be prepared (left out).
    public var failed = 0
    /// Images nobody labelled that both models labelled, of how many there are.
    public var unlabelledCompared = 0
    public var unlabelledAvailable = 0
    /// Of those sampled, how many thumbnails could not be prepared (not compared, not a sampling).
    public var unlabelledFailed = 0
    public var changed = 0
    /// Label changes on those images, most frequent first.
    public var transitions: [Transition] = []
}

extension OpenCatalogue {
    /// Compares a fine-tune's outcome (to be written to `path`) with its parent on this
    /// catalogue, with the recipe it was trained for (see `FineTuneComparison`).
    public func compareFineTune(_ outcome: ModelTraining.Outcome, at path: String, parent choice: ModelChoice,
                                recipe: any PrepRecipe) throws -> FineTuneComparison {
        let parent = try ClothingClassifier(modelBytes: choice.modelBytes(), path: choice.path)
        let model = try ClothingClassifier(modelBytes: outcome.model.serialized(), path: path)
        let learned = outcome.record.learnedImages
        // The parent as the catalogue runs it: with its own recipe. Given the new model's
        // (--prep fashion-mnist from a photo model) it was said to agree with 1 of 3 labels
        // where it agrees with 2, figures that are not the parent's.
        let parentRecipe = try self.recipe(named: nil, for: parent.model)
        let sameRecipe = parentRecipe.identity == recipe.identity
        let processor = ImageProcessor()
        var comparison = FineTuneComparison()
        try reading { store, _ in
            try store.forEachLabelledImage { image in
                guard !learned.contains(image.sha256.hex) else {
                    comparison.learnedFrom += 1
                    return
                }
                guard let tensor = try? processor.prepare(thumbnail: image.thumbnail, recipe: recipe),
                      let parentTensor = sameRecipe ? tensor
                        : try? processor.prepare(thumbnail: image.thumbnail, recipe: parentRecipe) else {
                    comparison.failed += 1
                    return
                }
                comparison.labelled += 1
                if parent.classify(tensor: parentTensor.values).labelIndex == image.label { comparison.parentAgreeing += 1 }
                if model.classify(tensor: tensor.values).labelIndex == image.label { comparison.modelAgreeing += 1 }
            }
        }
        guard let unlabelled = outcome.unlabelled else { return comparison }
        comparison.unlabelledCompared = unlabelled.parent.count
        comparison.unlabelledAvailable = unlabelled.available
        comparison.unlabelledFailed = unlabelled.failed
        var counts: [[Int]: Int] = [:]
        for (before, after) in zip(unlabelled.parent, unlabelled.new) where before != after {
            counts[[before, after], default: 0] += 1
        }
        comparison.changed = counts.values.reduce(0, +)
        comparison.transitions = counts.map {
            FineTuneComparison.Transition(from: ClothingClassifier.labels[$0.key[0]], to: ClothingClassifier.labels[$0.key[1]],
                                          count: $0.value)
        }.sorted { ($1.count, $0.from, $0.to) < ($0.count, $1.from, $1.to) }
        return comparison
    }
}
