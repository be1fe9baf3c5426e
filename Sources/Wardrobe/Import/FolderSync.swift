internal import Catalogue
import Files
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `wardrobe import --watch`: after the import, keeps the catalogue in step with the folders.
/// Files that settle (see `FolderWatcher`) are imported in batches through the same importer
/// and run engine as any import (one run per batch): a new file is classified once, a moved
/// file is a new path of known content, a changed file is read again. Deleted and moved-away
/// paths (a folder's: every known path under it) are marked missing in the catalogue. When
/// events were lost (the kernel's queue overflowed), every file under the folders is taken
/// again and every known path under them that is not there is marked missing. Stops when `shouldStop` says so, within a look (0.1 s) or,
/// during a batch, after that batch's transaction; and when every folder watched has been
/// deleted or moved away (`watchedRoots` is then 0), as nothing is left to watch.
public struct FolderSync {
    public struct Batch: Sendable {
        public var report: ImportReport
        /// Each file the batch stored, with the label its image has now.
        public var files: [WatchedFile] = []
        /// Paths deleted or moved away since the last batch.
        public var gone: [String]
        /// Known paths this batch marked missing (those under a gone folder included).
        public var markedMissing: Int
        /// Watched folders read again whole because events were lost (see `FolderWatcher`).
        public var rescanned: [String] = []
        /// Watched folders deleted or moved away, watched no more (see `FolderWatcher`).
        public var lost: [String] = []
    }

    /// A file a batch stored: its name as shown (see `PathName.display`), whether its image is
    /// new (else a known image under another name), and the image's effective label now.
    public struct WatchedFile: Sendable, Equatable {
        public var path: String
        public var isNewImage: Bool
        public var label: String
        public var labelledByPerson: Bool
        /// The model's label and its confidence in it (beside a person's label, the model's own).
        public var modelLabel: String
        public var confidence: Double
    }

    let importer: Importer
    let options: ImportOptions
    let watcher: FolderWatcher

    /// Starts watching `options.paths` (folders) now, before the first import runs, so
    /// nothing that arrives meanwhile is missed.
    public init(importer: Importer, options: ImportOptions, settle: Double = 0.4) throws(WardrobeError) {
        self.importer = importer
        self.options = options
        // The import's walk passes over the catalogue's own files; so must the watch, or each
        // batch's write to the catalogue is a change that starts the next batch.
        watcher = try FolderWatcher(paths: options.paths, includeHidden: options.includeHidden, settle: settle,
                                    own: OwnFiles(catalogue: importer.catalogue.path))
    }

    public var watchedFolders: Int { watcher.watchedFolders }
    /// Files that arrived or changed and are not imported yet (not settled when the watch stopped).
    public var hasUnsettledFiles: Bool { watcher.hasUnsettledFiles }
    /// The folders given that are still watched.
    public var watchedRoots: Int { watcher.watchedRoots }

    public func run(shouldStop: @escaping @Sendable () -> Bool = { InterruptFlag.isRaised },
                    batch: (Batch) -> Void, failure: (ImportReport.Failure) -> Void) throws {
        // The loop looks for a stop every 0.1 s, so the whole watch is a stoppable stretch:
        // Ctrl-C, SIGTERM or SIGHUP between batches asks, as during one, and never kills outright.
        try InterruptFlag.stoppable {
            while !shouldStop() {
                let changes = watcher.look(timeout: 0.1)
                if changes.isEmpty { continue }
                var report = ImportReport()
                if !changes.ready.isEmpty {
                    var files = options
                    files.paths = changes.ready
                    files.listsStoredFiles = true
                    let plan = try importer.plan(files)
                    report = try importer.run(files, plan: plan, shouldStop: shouldStop, progress: { _ in },
                                              failure: failure)
                }
                var missing: [String] = []
                for path in changes.gone {
                    if try importer.catalogue.knownPath(path) != nil {
                        missing.append(path)
                    } else {
                        missing += try importer.catalogue.knownPaths(under: path).map(\.path)
                    }
                }
                for root in changes.rescanned {
                    missing += try importer.catalogue.knownPaths(under: root).map(\.path).filter { !Self.isFile($0) }
                }
                let look = try importer.catalogue.recordLook(present: [], missing: missing)
                batch(Batch(report: report, files: try watched(report.stored), gone: changes.gone,
                            markedMissing: look.newlyMissing, rescanned: changes.rescanned, lost: changes.lost))
                if watcher.watchedRoots == 0 { return }
            }
        }
    }

    /// The stored files with their images' labels as the catalogue has them now (a known
    /// image's may be a person's).
    private func watched(_ stored: [ImportReport.StoredFile]) throws -> [WatchedFile] {
        try stored.compactMap { file in
            guard let current = try importer.catalogue.currentClassification(of: ImageID(file.image)) else { return nil }
            return WatchedFile(path: PathName.display(file.path), isNewImage: file.isNewImage,
                               label: LabelMatcher.name(of: current.effectiveLabel),
                               labelledByPerson: current.correctedLabel != nil,
                               modelLabel: LabelMatcher.name(of: current.label), confidence: current.confidence)
        }
    }

    private static func isFile(_ path: String) -> Bool {
        var status = stat()
        return PathName.withSystemName(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
