internal import Catalogue
import Files

/// What an import writes, on the run's writer thread. The one place that
/// decides whether an image is new: at commit, content the catalogue does
/// not hold (by hash) is stored with its classification; content it holds,
/// including a copy met earlier in the same import, only gains the path.
struct ImportWriter: RunWriter {
    let catalogue: any CatalogueStore
    /// Files the walk could not use, recorded as failures when the run opens.
    let problems: [ImportReport.Failure]
    /// Of `problems`, those with a size and time to record (a link that leads nowhere, as
    /// the link is), by which the next import knows them unchanged.
    let problemFiles: [PathName.Key: SeenFile]
    /// Told of every file that fails, as it fails.
    let failure: (ImportReport.Failure) -> Void
    /// Keep every stored file in the report (see `ImportOptions.listsStoredFiles`).
    var listsStoredFiles = false
    /// The image each known path among the files read named before (`Importer.Plan`): a path
    /// that names another one after the commit holds another photo now (`ImportReport.replaced`).
    var earlierImages: [PathName.Key: ImageID] = [:]
    /// What the import did, so far.
    private(set) var report = ImportReport()
    private var images: [NewImage] = []
    private var known: [(file: SeenFile, sha256: SHA256Digest)] = []
    /// Files that failed: told at once, recorded with the next batch.
    private var failures: [(problem: ImportReport.Failure, file: SeenFile?)] = []

    init(catalogue: any CatalogueStore, problems: [ImportReport.Failure], problemFiles: [PathName.Key: SeenFile] = [:],
         failure: @escaping (ImportReport.Failure) -> Void) {
        self.catalogue = catalogue
        self.problems = problems
        self.problemFiles = problemFiles
        self.failure = failure
    }

    var pending: Int { images.count + known.count + failures.count }

    var written: RunCounts { ImportWriter.counts(of: report) }

    private static func counts(of report: ImportReport) -> RunCounts {
        RunCounts(imported: report.newImages + report.newPaths, classified: report.newImages,
                  failed: report.failed.count)
    }

    /// The walk's problems, in a batch of their own.
    mutating func begin(run: RunID?, counts: (RunCounts) -> RunCounts) throws {
        guard !problems.isEmpty else { return }
        var after = report
        after.failed += problems
        if let run {
            try catalogue.writing(run: run) { batch in
                for problem in problems {
                    try batch.recordFailure(path: problem.path, reason: problem.reason,
                                            file: problemFiles[PathName.Key(problem.path)])
                }
                return counts(ImportWriter.counts(of: after))
            }
        }
        report = after
        problems.forEach(failure)
    }

    mutating func take(_ outcome: ImportWork.Outcome, run: RunID?) throws {
        switch outcome.kind {
        case .prepared(let image):
            images.append(image)
        case .hashed(let sha256):
            known.append((outcome.file.seen, sha256))
        case .failed(let reason, let ofContent):
            let problem = ImportReport.Failure(path: outcome.file.path, reason: reason)
            // Its size and time let the next import pass over it while it stays unchanged; but
            // a failure that is not its content's (a file not, when it failed, the one the walk
            // saw; one that could not be read) is not told by them: a photo moved away during
            // the read and back as it was, or made readable, was passed over for good. It is
            // kept without them, and tried again.
            failures.append((problem, ofContent ? outcome.file.seen : nil))
            failure(problem)
        case .outOfResources(let reason):
            // Kept as failing, the file would be passed over by every later import while it
            // stays unchanged, as would every file after it that met the same limit (an import
            // under `ulimit -n 13` kept 2,031 of 2,046 photos so). Every file after it would meet
            // it too, so the import stops here: what it committed stays, the run is closed as
            // failed, and the same command run with room to spare reads the rest.
            throw WardrobeError.system("\(outcome.file.path): \(reason); the import stopped without recording this "
                                       + "file as failing, and what it stored before is kept; run the same command "
                                       + "again to import the rest")
        }
    }

    /// One transaction: the batch's failures, new images, paths of known content, and the run's counts.
    /// Pending outcomes stay pending until written: a batch the catalogue refuses (locked by another
    /// process, a full disk) is counted by the run as not done, not as done and lost.
    mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws {
        guard let run else {
            images.removeAll(keepingCapacity: true)
            known.removeAll(keepingCapacity: true)
            report.failed += failures.map(\.problem)
            failures.removeAll(keepingCapacity: true)
            return
        }
        guard pending > 0 else { return }
        var after = report
        var forgotten: [ImportReport.Failure] = []
        try catalogue.writing(run: run) { batch in
            for (problem, file) in failures {
                try batch.recordFailure(path: problem.path, reason: problem.reason, file: file)
                after.failed.append(problem)
            }
            if !images.isEmpty {
                let inserted = try batch.insertImages(images, known: .gainsPathOnly)
                for (image, stored) in zip(images, inserted) {
                    if let file = image.file, let earlier = earlierImages[PathName.Key(file.path)], earlier != stored.image {
                        after.replaced += 1
                    }
                    if listsStoredFiles, let file = image.file, stored.isNew || stored.pathIsNew {
                        after.stored.append(.init(path: file.path, image: stored.image.rawValue, isNewImage: stored.isNew))
                    }
                    guard stored.isNew else {
                        if stored.pathIsNew { after.newPaths += 1 } else { after.alreadyStored += 1 }
                        continue
                    }
                    after.newImages += 1
                    if let label = image.classification?.label {
                        after.labels[ClothingClassifier.labels[label], default: 0] += 1
                    }
                }
            }
            if !known.isEmpty {
                for (entry, recorded) in zip(known, try batch.recordPaths(known)) {
                    if let recorded {
                        if recorded.isNew { after.newPaths += 1 } else { after.alreadyStored += 1 }
                        if let earlier = earlierImages[PathName.Key(entry.file.path)], earlier != recorded.image {
                            after.replaced += 1
                        }
                        if listsStoredFiles, recorded.isNew {
                            after.stored.append(.init(path: entry.file.path, image: recorded.image.rawValue, isNewImage: false))
                        }
                    } else {
                        // Forgotten between the worker's look and this batch.
                        let problem = ImportReport.Failure(path: entry.file.path, reason:
                            "its content was removed from the catalogue during the import; import it again")
                        try batch.recordFailure(path: problem.path, reason: problem.reason)
                        after.failed.append(problem)
                        forgotten.append(problem)
                    }
                }
            }
            return counts(ImportWriter.counts(of: after))
        }
        report = after
        images.removeAll(keepingCapacity: true)
        known.removeAll(keepingCapacity: true)
        failures.removeAll(keepingCapacity: true)
        forgotten.forEach(failure)
    }
}
