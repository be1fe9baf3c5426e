import Catalogue

/// What `wardrobe classify` writes when given a catalogue: every image with
/// its classification, in batches under the run, and every failure; the
/// results are kept in the order of the files for printing.
struct ClassifyWriter: RunWriter {
    let catalogue: Catalogue
    /// Told of every file that fails, as it fails.
    let failure: (ImportReport.Failure) -> Void
    private(set) var results: [FileClassifier.Result] = []
    private var images: [NewImage] = []
    private var stored = 0
    private var failed = 0

    init(catalogue: Catalogue, failure: @escaping (ImportReport.Failure) -> Void) {
        self.catalogue = catalogue
        self.failure = failure
    }

    var pending: Int { images.count }

    var written: RunCounts { RunCounts(imported: stored, classified: stored, failed: failed) }

    mutating func take(_ outcome: ClassifyWork.Outcome, run: RunID?) throws {
        switch outcome {
        case .classified(let result, let image):
            results.append(result)
            images.append(image)
        case .failed(let problem):
            if let run { try catalogue.recordFailure(path: problem.path, reason: problem.reason, run: run) }
            failed += 1
            failure(problem)
        }
    }

    mutating func commit(run: RunID?) throws {
        guard !images.isEmpty else { return }
        if let run {
            try catalogue.insertImages(images, run: run)
            stored += images.count
        }
        images.removeAll(keepingCapacity: true)
    }
}
