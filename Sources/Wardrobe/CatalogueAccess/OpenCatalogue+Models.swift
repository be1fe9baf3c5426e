import Foundation
import Imaging
import Inference
import Training

extension OpenCatalogue {
    /// `model info`: what the model the rule chooses (`ModelChoice`: the file named,
    /// `$WARDROBE_MODEL`, the catalogue's, the bundled one) says about itself, read
    /// without preparing it.
    public func modelSummary(explicit: String?) throws -> (choice: ModelChoice, summary: ModelSummary) {
        var choice = try modelChoice(explicit: explicit)
        if choice.bytes == nil { choice.path = URL(fileURLWithPath: choice.path).path }
        let bytes = try choice.bytes ?? ClothingClassifier.readModel(at: choice.path)
        do {
            return (choice, ModelSummary(try ModelFile(bytes: bytes)))
        } catch {
            // Named as every command that loads a model names it.
            throw WardrobeError.model(path: choice.path, reason: error.description)
        }
    }

    /// `model train --corrections`: the images a person labelled or confirmed, prepared
    /// with `recipe`, some held out (see `CorrectionTrainingSet`).
    func correctionTrainingSet(recipe: any PrepRecipe) throws -> CorrectionTrainingSet {
        try reading { store, _ in try CorrectionTrainingSet(catalogue: store, recipe: recipe) }
    }

    /// `model train --corrections`, before it trains: the labels nothing says are right.
    public func confirmationGaps() throws -> ConfirmationGaps {
        try reading { store, _ in ConfirmationGaps(pairs: try store.personLabelPairs()) }
    }

    /// `model train --corrections` from a parent: the parent's answers on a sample of the
    /// images nobody labelled (see `UnlabelledTrainingSet`).
    func unlabelledTrainingSet(recipe: any PrepRecipe, parentRecipe: any PrepRecipe, parent: Network, parentSHA256: String,
                               temperature: Float, limit: Int, seed: UInt64, threads: Int) throws -> UnlabelledTrainingSet {
        try reading { store, _ in
            try UnlabelledTrainingSet(catalogue: store, recipe: recipe, parentRecipe: parentRecipe, parent: parent,
                                      parentSHA256: parentSHA256,
                                      temperature: temperature, limit: limit, seed: seed, threads: threads)
        }
    }
}
