import Catalogue
import Foundation
import Imaging
import Synchronization

/// `wardrobe import`: walks the given paths, and for every new file reads,
/// hashes, decodes, thumbnails, prepares and classifies it on worker threads,
/// while this thread writes finished images to the catalogue in batches, one
/// transaction each. Killed at any moment and run again, it finishes the
/// rest: committed files are skipped by path, size and time, and content is
/// deduplicated by SHA-256.
public final class Importer {
    let catalogue: Catalogue
    let classifier: ClothingClassifier
    let processor: ImageProcessor

    public init(catalogue: Catalogue, classifier: ClothingClassifier, processor: ImageProcessor = ImageProcessor()) {
        self.catalogue = catalogue
        self.classifier = classifier
        self.processor = processor
    }

    /// The files an import would read, and those it would skip as unchanged.
    public struct Plan: Sendable {
        public var toRead: [FoundFile] = []
        public var unchanged: [FoundFile] = []
        public var problems: [ImportReport.Failure] = []
        /// Time spent walking the paths and looking them up, counted in the import's time.
        public var seconds = 0.0
    }

    public func plan(_ options: ImportOptions) throws -> Plan {
        let start = Date()
        let found = PhotoFinder(includeHidden: options.includeHidden).find(options.paths)
        var plan = Plan()
        plan.problems = found.problems.map { ImportReport.Failure(path: $0.path, reason: $0.reason) }
        // The catalogue itself may sit inside the folder being imported.
        let own = URL(fileURLWithPath: catalogue.path).standardizedFileURL.path
        let catalogueFiles = Set(["", "-wal", "-shm", "-journal"].map { own + $0 })
        for file in found.files where !catalogueFiles.contains(file.path) {
            if let known = try catalogue.knownPath(file.path), known.isUnchanged(file.seen) {
                plan.unchanged.append(file)
            } else {
                plan.toRead.append(file)
            }
        }
        plan.seconds = Date().timeIntervalSince(start)
        return plan
    }

    /// Runs the plan. `progress` is called on this thread after every file;
    /// `failure` once per file that could not be imported.
    public func run(_ options: ImportOptions, plan: Plan,
                    progress: (ImportProgress) -> Void,
                    failure: (ImportReport.Failure) -> Void) throws -> ImportReport {
        let start = Date()
        var report = ImportReport()
        report.filesFound = plan.toRead.count + plan.unchanged.count
        report.unchanged = plan.unchanged.count

        let model = try catalogue.registerModel(classifier.model.catalogueModel())
        let recipe = Recipe(name: options.recipe.name, version: options.recipe.version)
        let run = try catalogue.openRun(command: "import", model: model, recipe: recipe)
        report.runID = run.rawValue

        for problem in plan.problems {
            try catalogue.recordFailure(path: problem.path, reason: problem.reason, run: run)
            report.failed.append(problem)
            failure(problem)
        }

        let work = ImportWork(files: plan.toRead, catalogue: catalogue.path, classifier: classifier,
                              processor: processor, recipe: options.recipe)
        let workers = min(options.jobs, max(1, plan.toRead.count))
        let queue = BoundedQueue<ImportWork.Outcome>(capacity: options.batchSize + 4 * workers, producers: workers)
        for _ in 0..<workers {
            let thread = Thread { work.drain(into: queue) }
            thread.stackSize = 4 << 20
            thread.start()
        }

        var writer = BatchWriter(catalogue: catalogue, run: run, batchSize: options.batchSize)
        var done = 0
        var lastFlush = Date()
        func handle(_ result: BatchWriter.Result) throws {
            switch result {
            case .stored(let label):
                report.newImages += 1
                report.labels[ClothingClassifier.labels[label], default: 0] += 1
            case .pathAdded:
                report.newPaths += 1
            case .failed(let problem):
                try catalogue.recordFailure(path: problem.path, reason: problem.reason, run: run)
                report.failed.append(problem)
                failure(problem)
            }
        }
        while !queue.isFinished {
            guard let outcome = queue.pop(timeout: 0.25) else {
                // Quiet for a while (slow files): commit what is done so far.
                if Date().timeIntervalSince(lastFlush) > 1 { try writer.flush().forEach(handle); lastFlush = Date() }
                continue
            }
            done += 1
            for result in try writer.add(outcome) { try handle(result) }
            progress(ImportProgress(done: done, total: plan.toRead.count, currentFile: outcome.file.path,
                                    elapsedSeconds: Date().timeIntervalSince(start)))
        }
        for result in try writer.finish() { try handle(result) }

        report.interrupted = work.wasInterrupted
        report.seconds = plan.seconds + Date().timeIntervalSince(start)
        try catalogue.closeRun(run, counts: RunCounts(
            seen: report.filesFound, imported: report.newImages + report.newPaths,
            classified: report.newImages, skipped: report.unchanged, failed: report.failed.count))
        return report
    }
}

extension FoundFile {
    var seen: SeenFile { SeenFile(path: path, size: size, modificationTimeNanoseconds: modified) }
}

extension ModelIdentity {
    func catalogueModel() throws -> NewModel {
        NewModel(name: name, version: version, sha256: try SHA256Digest(bytes: sha256),
                 labels: labels, parameterCount: parameterCount)
    }
}
