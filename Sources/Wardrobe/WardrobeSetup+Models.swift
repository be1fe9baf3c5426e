import Foundation
import Inference

extension WardrobeSetup {
    /// What a model says about itself (`wardrobe model info`): the model the
    /// one rule chooses (`ModelChoice`: the file named, `$WARDROBE_MODEL`, the
    /// catalogue's, the bundled one), read without preparing it.
    public func modelSummary(explicit: String?, cataloguePath: String?) throws -> (choice: ModelChoice, summary: ModelSummary) {
        var choice = try modelChoice(explicit: explicit, cataloguePath: cataloguePath)
        if choice.bytes == nil { choice.path = URL(fileURLWithPath: choice.path).path }
        let bytes = try choice.bytes ?? ClothingClassifier.readModel(at: choice.path)
        do {
            return (choice, ModelSummary(try ModelFile(bytes: bytes)))
        } catch {
            // Named as every command that loads a model names it.
            throw WardrobeError.model(path: choice.path, reason: error.description)
        }
    }
}
