import Foundation
import Inference

extension WardrobeSetup {
    /// What a model says about itself (`wardrobe model info`): the model the
    /// one rule chooses (`ModelChoice`: the file named, `$WARDROBE_MODEL`, the
    /// catalogue's, the bundled one), read without preparing it.
    public func modelSummary(explicit: String?, cataloguePath: String?) throws -> (choice: ModelChoice, summary: ModelSummary) {
        var choice = try modelChoice(explicit: explicit, cataloguePath: cataloguePath)
        if let bytes = choice.bytes { return (choice, ModelSummary(try ModelFile(bytes: bytes))) }
        let url = URL(fileURLWithPath: choice.path)
        choice.path = url.path
        return (choice, ModelSummary(try ModelFile(contentsOf: url)))
    }
}
