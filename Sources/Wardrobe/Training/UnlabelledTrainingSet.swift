internal import Catalogue
import Foundation
import Imaging
import Training

/// The parent's answers on a catalogue's images nobody labelled (and those
/// a person marked `none`): soft targets a fine-tune learns beside the
/// corrections, so it keeps what the parent did on the photos nobody
/// checked (knowledge distillation). Without them a fine-tune learns the
/// corrected labels and, to pay for it, moves labels nobody touched; people
/// correct what is wrong, so corrections are always skewed that way.
///
/// At most `limit` images are used, a sample drawn by `seed`, so a large
/// catalogue costs no more than a small one. Each is prepared from its
/// stored thumbnail as `reclassify` prepares it; its target is the parent's
/// logits: those stored with its current classification when the parent
/// made it (with any recipe: they are what the catalogue shows), else
/// computed once here with the parent's own recipe.
public struct UnlabelledTrainingSet: Sendable {
    /// The stated default sample: a fine-tune prepares at most this many images.
    public static let defaultLimit = 2_000

    public var targets = SoftTargets()
    /// The parent's label of each target, in order (the argmax of its logits).
    public var parentLabels: [Int] = []
    /// Images nobody labelled in the catalogue, before sampling.
    public var available = 0
    /// Of the targets, how many came from stored classifications (the rest were computed).
    public var fromStoredLogits = 0
    public var failures: [PhotoTrainingSet.Failure] = []

    public init() {}

    /// `parentSHA256` (hex) tells stored logits the parent made from others'. The parent's
    /// answers are its own: those stored, else on the image prepared with `parentRecipe` (its recipe), which
    /// need not be `recipe`, the one the tensors learned are prepared with: given the new
    /// model's recipe, they were not the labels the catalogue shows, and what the new model
    /// "changes" was counted against them.
    init(catalogue: any CatalogueStore, recipe: any PrepRecipe, parentRecipe: any PrepRecipe, parent: Network,
         parentSHA256: String, temperature: Float, limit: Int = defaultLimit, seed: UInt64, threads: Int,
         processor: ImageProcessor = ImageProcessor()) throws {
        let sameRecipe = parentRecipe.identity == recipe.identity
        var ids = try catalogue.unlabelledImageIDs()
        available = ids.count
        var generator = SeededGenerator(seed: seed, stream: 0x0A11)
        generator.shuffle(&ids)
        ids = Array(ids.prefix(limit))
        var tensors: [Float] = []
        /// The parent's view of each image when its recipe differs (else `tensors`).
        var parentTensors: [Float] = []
        var logits: [[Float]?] = []
        try catalogue.forEachUnlabelledImage(ids) { image in
            do throws(ImagingError) {
                let tensor = try processor.prepare(thumbnail: image.thumbnail, recipe: recipe)
                if !sameRecipe {
                    parentTensors += try processor.prepare(thumbnail: image.thumbnail, recipe: parentRecipe).values
                }
                tensors += tensor.values
                // The parent's stored answer, whatever recipe made it (import --prep), is the
                // label the catalogue shows: what the new model's changes are counted against.
                let byParent = image.modelSHA256?.hex == parentSHA256
                logits.append(byParent ? image.logits : nil)
            } catch {
                failures.append(.init(path: "image \(image.image) (stored thumbnail)", reason: error.reason))
            }
        }
        // The rest in one batched pass of the parent.
        let missing = logits.indices.filter { logits[$0] == nil }
        let size = SoftTargets.valuesPerExample
        let seen = sameRecipe ? tensors : parentTensors
        let computed = Trainer.logits(parent, tensors: missing.flatMap { seen[$0 * size..<($0 + 1) * size] },
                                      threads: threads)
        for (n, i) in missing.enumerated() {
            logits[i] = Array(computed[n * SoftTargets.classes..<(n + 1) * SoftTargets.classes])
        }
        fromStoredLogits = logits.count - missing.count
        for (i, row) in logits.enumerated() {
            targets.append(Array(tensors[i * size..<(i + 1) * size]), logits: row!, temperature: temperature)
            parentLabels.append(targets.label(i))
        }
    }
}
