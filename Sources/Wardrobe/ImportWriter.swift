import Catalogue

/// What an import writes, on the run's writer thread. The one place that
/// decides whether an image is new: at commit, content the catalogue does
/// not hold (by hash) is stored with its classification; content it holds,
/// including a copy met earlier in the same import, only gains the path.
struct ImportWriter: RunWriter {
    let catalogue: Catalogue
    /// Files the walk could not use, recorded as failures when the run opens.
    let problems: [ImportReport.Failure]
    /// Told of every file that fails, as it fails.
    let failure: (ImportReport.Failure) -> Void
    /// What the import did, so far.
    private(set) var report = ImportReport()
    private var images: [NewImage] = []
    private var known: [(file: SeenFile, sha256: SHA256Digest)] = []

    init(catalogue: Catalogue, problems: [ImportReport.Failure], failure: @escaping (ImportReport.Failure) -> Void) {
        self.catalogue = catalogue
        self.problems = problems
        self.failure = failure
    }

    var pending: Int { images.count + known.count }

    var written: RunCounts {
        RunCounts(imported: report.newImages + report.newPaths, classified: report.newImages,
                  failed: report.failed.count)
    }

    mutating func begin(run: RunID?) throws {
        for problem in problems { try fail(problem, run: run) }
    }

    mutating func take(_ outcome: ImportWork.Outcome, run: RunID?) throws {
        switch outcome.kind {
        case .prepared(let image):
            images.append(image)
        case .hashed(let sha256):
            known.append((outcome.file.seen, sha256))
        case .failed(let reason):
            try fail(ImportReport.Failure(path: outcome.file.path, reason: reason), file: outcome.file.seen, run: run)
        }
    }

    mutating func commit(run: RunID?) throws {
        guard let run else {
            images.removeAll(keepingCapacity: true)
            known.removeAll(keepingCapacity: true)
            return
        }
        if !images.isEmpty {
            let inserted = try catalogue.insertImages(images, run: run, known: .gainsPathOnly)
            for (image, stored) in zip(images, inserted) {
                guard stored.isNew else {
                    if stored.pathIsNew { report.newPaths += 1 } else { report.alreadyStored += 1 }
                    continue
                }
                report.newImages += 1
                if let label = image.classification?.label {
                    report.labels[ClothingClassifier.labels[label], default: 0] += 1
                }
            }
            images.removeAll(keepingCapacity: true)
        }
        if !known.isEmpty {
            // Kept pending until written: a batch the catalogue refuses (locked by another
            // process, a full disk) is counted by the run as not done, not as done and lost.
            let recordedPaths = try catalogue.recordPaths(known)
            let files = known
            known.removeAll(keepingCapacity: true)
            for (entry, recorded) in zip(files, recordedPaths) {
                if let recorded {
                    if recorded.isNew { report.newPaths += 1 } else { report.alreadyStored += 1 }
                } else {
                    // Forgotten between the worker's look and this commit.
                    try fail(ImportReport.Failure(path: entry.file.path, reason:
                        "its content was removed from the catalogue during the import; import it again"), run: run)
                }
            }
        }
    }

    /// `file` (its size and time) lets the next import pass over it while it stays unchanged.
    private mutating func fail(_ problem: ImportReport.Failure, file: SeenFile? = nil, run: RunID?) throws {
        if let run { try catalogue.recordFailure(path: problem.path, reason: problem.reason, run: run, file: file) }
        report.failed.append(problem)
        failure(problem)
    }
}
