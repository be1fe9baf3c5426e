import Foundation
import Inference

extension WardrobeSetup {
    /// What a model file says about itself (`wardrobe model info`): the file
    /// named, else the default model, read without preparing it.
    public func modelSummary(explicit: String?) throws -> (path: String, summary: ModelSummary) {
        let url = URL(fileURLWithPath: try modelPath(explicit: explicit))
        return (url.path, ModelSummary(try ModelFile(contentsOf: url)))
    }
}
