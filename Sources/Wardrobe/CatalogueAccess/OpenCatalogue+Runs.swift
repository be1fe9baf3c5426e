internal import Catalogue
import Foundation
import Imaging

/// The use cases that classify: import, classify with the results kept, reclassify.
extension OpenCatalogue {
    /// `import`: the importer of photos into this catalogue, classified by `classifier`.
    public func importer(classifier: ClothingClassifier) throws -> Importer {
        Importer(catalogue: try store(), classifier: classifier)
    }

    /// `classify`: classifies every path in order; with `save`, the results are stored as a
    /// run of their own. A file that fails is reported through `failure` and the rest go on.
    public func classify(_ paths: [String], with classifier: FileClassifier, top: Int, save: Bool,
                         failure: (ImportReport.Failure) -> Void) throws -> [FileClassifier.Result] {
        try classifier.classify(paths, top: top, saveTo: save ? try store() : nil, failure: failure)
    }

    /// `reclassify`: selects the images `request` names and re-runs them with `classifier`
    /// (see `Reclassifier`). `progress` is called on this thread after every chunk.
    public func reclassify(_ request: ReclassifyRequest, classifier: ClothingClassifier,
                           progress: (ReclassifyProgress) -> Void) throws -> ReclassifyReport {
        let store = try store()
        let options = try request.options(in: store, setup: setup, model: classifier.model)
        let reclassifier = Reclassifier(catalogue: store, classifier: classifier)
        let candidates = try reclassifier.select(options.filter)
        InterruptFlag.install()
        return try reclassifier.run(candidates, options: options, progress: progress)
    }
}
