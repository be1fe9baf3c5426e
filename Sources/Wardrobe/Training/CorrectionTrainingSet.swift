internal import Catalogue
import Foundation
import Imaging
import Training

/// The images a person labelled or confirmed in a catalogue, made into
/// training tensors from their stored thumbnails (the originals may be
/// gone), each prepared as `reclassify` prepares it: the thumbnail decoded,
/// fitted, the recipe run on it. `none` labels are never examples.
///
/// Held out like a folder's photos: by the image's SHA-256 (the hash of the
/// file it was imported from), first byte below `PhotoTrainingSet.heldOutBelow`,
/// so the same photo is held out whether it comes from a folder or from a
/// catalogue. The rest are learned from in hash order.
public struct CorrectionTrainingSet: Sendable {
    public var training = LabelledTensors()
    public var heldOut = LabelledTensors()
    /// The content hashes of every labelled image read (learned or held out):
    /// a folder photo with one of these is left to the person's label.
    public var hashes: Set<[UInt8]> = []
    /// The content hashes (lowercase hex) of the images in `training`: what the model file records it learned from.
    public var learnedHashes: Set<String> = []
    /// Thumbnails that could not be prepared, named by image id.
    public var failures: [PhotoTrainingSet.Failure] = []
    public var cataloguePath: String
    public var recipe: String

    /// Reads every labelled image of `catalogue` (one thumbnail in memory at
    /// a time). `progress(done)` after each image.
    init(catalogue: any CatalogueStore, recipe: any PrepRecipe, processor: ImageProcessor = ImageProcessor(),
                progress: (Int) -> Void = { _ in }) throws {
        cataloguePath = catalogue.path
        self.recipe = recipe.identity
        var kept: [(sha256: SHA256Digest, tensor: [Float], label: Int)] = []
        var failures: [PhotoTrainingSet.Failure] = []
        try catalogue.forEachLabelledImage { image in
            do throws(ImagingError) {
                let tensor = try processor.prepare(thumbnail: image.thumbnail, recipe: recipe)
                kept.append((image.sha256, tensor.values, image.label))
            } catch {
                failures.append(.init(path: "image \(image.image) (stored thumbnail)", reason: error.reason))
            }
            progress(kept.count + failures.count)
        }
        self.failures = failures
        kept.sort { $0.sha256.bytes.lexicographicallyPrecedes($1.sha256.bytes) }
        for example in kept {
            hashes.insert(example.sha256.bytes)
            if example.sha256.bytes[0] < PhotoTrainingSet.heldOutBelow {
                heldOut.append(example.tensor, accepted: [example.label])
            } else {
                training.append(example.tensor, accepted: [example.label])
                learnedHashes.insert(example.sha256.hex)
            }
        }
    }

    /// Why a set has nothing to learn from, as it is: every labelled image held out (a
    /// fine-tune went on, "0 to learn from (), 1 held out", and wrote a model that learned
    /// nothing of the person's), the thumbnails of the images a person labelled
    /// could not be prepared, or no image has a person's label among the ten (a catalogue
    /// whose labels are all `none` is labelled, so "no image is labelled" would be untrue).
    public var whyEmpty: String {
        if training.isEmpty, !heldOut.isEmpty {
            let count = heldOut.count == 1 ? "the one image" : "all \(heldOut.count) images"
            return "\(count) a person labelled or confirmed \(heldOut.count == 1 ? "is" : "are") held out to measure "
                + "the model (about 1 in 10 is, chosen by the SHA-256 of its file); label or confirm a few more"
        }
        if let first = failures.first {
            return "none of the \(failures.count) images a person labelled could be prepared (\(first.path): \(first.reason))"
        }
        return "no image is labelled with one of the ten labels or confirmed by a person (wardrobe label); "
            + "a none label is not learned from"
    }

    /// What the model file records: the catalogue and how many examples of each label it gave.
    public var source: DataSource {
        DataSource(name: "corrections \(cataloguePath) (\(recipe))", tensors: training)
    }
}
