internal import Catalogue
import Files
import Foundation
import Imaging

/// `wardrobe import`: walks the given paths, and for every new file reads,
/// hashes, decodes, thumbnails, prepares and classifies it on worker threads,
/// while this thread writes finished images to the catalogue in batches, one
/// transaction each. Killed at any moment and run again, it finishes the
/// rest: committed files are skipped by path, size and time, and content is
/// deduplicated by SHA-256.
///
/// `Import/` owns `wardrobe import`: its options and progress, its run's work and writer,
/// the capture time kept from EXIF, and `--watch` (`FolderSync`).
public final class Importer {
    let catalogue: any CatalogueStore
    let classifier: ClothingClassifier
    let processor: ImageProcessor

    init(catalogue: any CatalogueStore, classifier: ClothingClassifier, processor: ImageProcessor = ImageProcessor()) {
        self.catalogue = catalogue
        self.classifier = classifier
        self.processor = processor
    }

    /// The files an import would read, and those it would skip as unchanged.
    public struct Plan: Sendable {
        public var toRead: [FoundFile] = []
        public var unchanged: [FoundFile] = []
        /// Files that failed before and have not changed since: not read, not reported again.
        public var knownFailures: [FoundFile] = []
        public var problems: [ImportReport.Failure] = []
        /// Of `problems`, the symbolic links that lead nowhere, as the link itself is: recorded
        /// with the failure, so that the next import knows the link unchanged.
        var brokenLinks: [PathName.Key: FoundFile] = [:]
        /// Wardrobe's own files under the folders walked (`OwnFiles`) that are recorded as
        /// failing, to fail no more (an older watch recorded a catalogue's `-wal`, again and again).
        var failingOwnFiles: [String] = []
        /// Hidden files and folders passed over (without `--hidden`).
        public var hidden = 0
        /// Files passed over by name as no photo (`PhotoFinder.notPhotoExtensions`).
        public var notPhotos: [String] = []
        /// Pipes, sockets and devices passed over (`PhotoFinder`).
        public var special = 0
        /// Failing files under the folders walked that are gone (to fail no more).
        public var goneFailures: [String] = []
        /// Known paths under the folders walked that are gone (to be marked missing).
        public var gone: [String] = []
        /// Known paths marked missing that are there again, unchanged.
        public var back: [String] = []
        /// Of the files to read, those with a known path: the image each path names now.
        var earlierImages: [PathName.Key: ImageID] = [:]
        /// Time spent walking the paths and looking them up, counted in the import's time.
        public var seconds = 0.0
    }

    /// Why a file whose name shows as another's is not imported.
    static let sameDisplayName = "its name shows as another file's (a byte that is not UTF-8 shows as \\xHH, "
        + "a line break as \\n, as a backslash and an n do; an accent looks the same written into its letter or after it); "
        + "rename one of them to import both"

    /// Files whose stored paths and failures `plan` asks for at once.
    static let filesPerLookUp = 256

    public func plan(_ options: ImportOptions) throws -> Plan {
        let start = Date()
        // The catalogue itself may sit inside the folder being imported, under any name
        // (a symbolic link to its folder): `OwnFiles` knows its files, as the watch does.
        let found = PhotoFinder(includeHidden: options.includeHidden).find(options.paths, own: OwnFiles(catalogue: catalogue.path))
        var plan = Plan()
        for (path, reason) in found.problems {
            // A link that leads nowhere has no file to compare: it is known unchanged by the
            // link itself, failing for the same reason (it failed anew on every import before).
            if let link = found.brokenLinks[PathName.Key(path)] {
                if let failing = try catalogue.failingFile(path), failing.isUnchanged(link.seen), failing.reason == reason {
                    plan.knownFailures.append(link)
                    continue
                }
                plan.brokenLinks[PathName.Key(path)] = link
            }
            plan.problems.append(ImportReport.Failure(path: path, reason: reason))
        }
        plan.failingOwnFiles = try found.own.filter { try catalogue.failingFile($0) != nil }
        plan.hidden = found.hidden
        plan.notPhotos = found.notPhotos
        plan.special = found.special
        // Forms shown in this walk: a path row holds one name of each display form, and
        // no two names may look alike in any output (`VisibleText`). The walk finds each path
        // once, so a form met again is another file's.
        var shown = Set<String>()
        // Asked of the catalogue a few hundred files at a time (on a server, a few statements for each lot).
        for start in stride(from: 0, to: found.files.count, by: Importer.filesPerLookUp) {
            let files = found.files[start..<min(start + Importer.filesPerLookUp, found.files.count)]
            for (file, look) in zip(files, try catalogue.lookUp(files.map(\.path))) {
                // A path known exactly has its row; only an unknown one can meet another's.
                if look.showsAsAnother || !shown.insert(VisibleText.escaped(PathName.display(file.path))).inserted {
                    plan.problems.append(ImportReport.Failure(path: file.path, reason: Importer.sameDisplayName))
                    continue
                }
                if let known = look.known, known.isUnchanged(file.seen) {
                    plan.unchanged.append(file)
                    if known.isMissing { plan.back.append(file.path) }
                } else if let failing = look.failing, failing.isUnchanged(file.seen) {
                    plan.knownFailures.append(file)
                } else {
                    plan.toRead.append(file)
                    if let known = look.known { plan.earlierImages[PathName.Key(file.path)] = known.image }
                }
            }
        }
        let walked = Set(found.files.map { PathName.Key($0.path) }).union(found.brokenLinks.keys)
        plan.gone = try PathLook.gone(under: options.paths, walked: walked, in: catalogue)
        plan.goneFailures = try PathLook.goneFailures(under: options.paths, walked: walked, in: catalogue)
        plan.seconds = Date().timeIntervalSince(start)
        return plan
    }

    /// Runs the plan. `progress` is called on this thread after every few
    /// files; `failure` once per file that could not be imported; `shouldStop`
    /// before every take (a watch passes its own).
    public func run(_ options: ImportOptions, plan: Plan,
                    shouldStop: @escaping @Sendable () -> Bool = { InterruptFlag.isRaised },
                    progress: (ImportProgress) -> Void,
                    failure: (ImportReport.Failure) -> Void) throws -> ImportReport {
        try run(options, plan: plan, settings: RunEngine.Settings(jobs: options.jobs, batchSize: options.batchSize,
                                                                 itemsPerTake: ImportWork.filesPerTake,
                                                                 shouldStop: shouldStop),
                progress: progress, failure: failure)
    }

    /// The same, with the engine's settings given (tests interrupt one run through them).
    public func run(_ options: ImportOptions, plan: Plan, settings: RunEngine.Settings,
                    progress: (ImportProgress) -> Void,
                    failure: (ImportReport.Failure) -> Void) throws -> ImportReport {
        let start = Date()
        let work = ImportWork(classifier: classifier, processor: processor, recipe: options.recipe)
        let recording = RunEngine.Recording(
            command: "import", model: classifier.model,
            recipe: Recipe(name: options.recipe.name, version: options.recipe.version),
            skippedBefore: plan.unchanged.count + plan.knownFailures.count)
        if !plan.toRead.isEmpty { try catalogue.recordColourRuleBeforeMeasuring() }
        let look = try catalogue.recordLook(present: plan.back, missing: plan.gone)
        // A file deleted since it failed is failing no more, nor is one passed over by name
        // (it may have failed in an import made before such files were passed over), nor
        // one of the catalogue's own files.
        try catalogue.stopFailing(plan.goneFailures + plan.notPhotos + plan.failingOwnFiles)
        // Other importers of the same files take their share: this one reads those it leases.
        let leases = try FileLeases(location: catalogue.location, files: plan.toRead)
        defer { leases.end() }
        var settings = settings
        settings.admit = leases.admit
        settings.leaseHolder = leases.holder
        return try withoutActuallyEscaping(failure) { failure in
            var writer = ImportWriter(catalogue: catalogue, problems: plan.problems,
                                      problemFiles: plan.brokenLinks.mapValues(\.seen), failure: failure)
            writer.earlierImages = plan.earlierImages
            writer.listsStoredFiles = options.listsStoredFiles
            let summary = try RunEngine(catalogue: catalogue, settings: settings).run(
                plan.toRead, work: work, writer: &writer, recording: recording) { done, latest in
                progress(ImportProgress(done: done, total: plan.toRead.count, currentFile: latest.file.path,
                                        elapsedSeconds: Date().timeIntervalSince(start)))
            }
            var report = writer.report
            // The paths that failed before they could be read (a pipe named, two names shown
            // alike) were found too: "Imported 0 of 0 files: 1 failed" did not add up.
            report.filesFound = plan.toRead.count + plan.unchanged.count + plan.knownFailures.count + plan.problems.count
            report.unchanged = plan.unchanged.count
            report.filesRead = plan.toRead.count - leases.filesPassedOver
            report.passedToOthers = leases.filesPassedOver
            report.knownFailures = plan.knownFailures.count
            report.hidden = plan.hidden
            report.special = plan.special
            report.notPhotos = Dictionary(grouping: plan.notPhotos) { PhotoFinder.notPhotoExtension(of: $0) ?? "" }
                .mapValues(\.count)
            report.missing = look.newlyMissing
            report.runID = summary.run?.rawValue
            report.interrupted = summary.interrupted
            report.seconds = plan.seconds + Date().timeIntervalSince(start)
            return report
        }
    }
}
