internal import Catalogue

/// What `wardrobe classify` writes when given a catalogue: every image with
/// its classification, in batches under the run, and every failure; the
/// results are kept in the order of the files for printing.
struct ClassifyWriter: RunWriter {
    let catalogue: any CatalogueStore
    /// Told of every file that fails, as it fails.
    let failure: (ImportReport.Failure) -> Void
    private(set) var results: [FileClassifier.Result] = []
    private var images: [NewImage] = []
    /// Files that failed: told at once, recorded with the next batch.
    private var failures: [ImportReport.Failure] = []
    private var stored = 0
    private var failed = 0

    init(catalogue: any CatalogueStore, failure: @escaping (ImportReport.Failure) -> Void) {
        self.catalogue = catalogue
        self.failure = failure
    }

    var pending: Int { images.count + failures.count }

    var written: RunCounts { RunCounts(imported: stored, classified: stored, failed: failed) }

    mutating func take(_ outcome: ClassifyWork.Outcome, run: RunID?) throws {
        switch outcome {
        case .classified(let result, let image):
            results.append(result)
            images.append(image)
        case .failed(let problem):
            failures.append(problem)
            failure(problem)
        }
    }

    /// One transaction: the batch's failures, its images, and the run's counts.
    mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws {
        guard pending > 0 else { return }
        if let run {
            let after = RunCounts(imported: stored + images.count, classified: stored + images.count,
                                  failed: failed + failures.count)
            try catalogue.writing(run: run) { batch in
                for problem in failures { try batch.recordFailure(path: problem.path, reason: problem.reason) }
                try batch.insertImages(images, known: .isClassifiedAgain)
                return counts(after)
            }
            stored += images.count
        }
        failed += failures.count
        images.removeAll(keepingCapacity: true)
        failures.removeAll(keepingCapacity: true)
    }
}
