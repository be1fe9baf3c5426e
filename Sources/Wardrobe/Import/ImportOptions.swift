import Files
import Imaging

/// What `wardrobe import` was asked to do.
public struct ImportOptions: Sendable {
    public var paths: [String]
    /// Worker threads for read, hash, decode, thumbnail, prep and inference.
    public var jobs: Int
    public var recipe: any PrepRecipe
    public var includeHidden: Bool
    /// Images per transaction: a crash loses at most one batch of work, never half an image.
    public var batchSize: Int
    /// Keep each file stored in the report (`ImportReport.stored`): for `--watch`, whose
    /// batches are small; a large import would hold a row per file in memory.
    public var listsStoredFiles = false

    public init(paths: [String], jobs: Int, recipe: any PrepRecipe, includeHidden: Bool = false, batchSize: Int = 64) {
        self.paths = paths
        self.jobs = max(1, jobs)
        self.recipe = recipe
        self.includeHidden = includeHidden
        self.batchSize = max(1, batchSize)
    }
}

/// How far an import has got, for a progress bar or periodic lines.
public struct ImportProgress: Sendable {
    public var done: Int
    public var total: Int
    public var currentFile: String
    public var elapsedSeconds: Double

    public var filesPerSecond: Double { elapsedSeconds > 0 ? Double(done) / elapsedSeconds : 0 }
    public var secondsLeft: Double? {
        filesPerSecond > 0 ? Double(total - done) / filesPerSecond : nil
    }
}

/// What an import did. `--json` prints exactly this.
public struct ImportReport: Sendable, Encodable {
    public struct Failure: Sendable, Encodable, Equatable {
        /// The name as read (see `PathName`): it opens the file.
        public var path: String
        public var reason: String

        enum CodingKeys: String, CodingKey { case path, reason }

        /// JSON shows a name that is not UTF-8 as the catalogue stores it: each raw byte as `\xFF`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(PathName.display(path), forKey: .path)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// A file stored by the import: the image it is now a path of, and whether that image is new.
    public struct StoredFile: Sendable, Equatable {
        /// The name as read (see `PathName`).
        public var path: String
        public var image: Int64
        public var isNewImage: Bool
    }

    /// Files the walk found: read, skipped unchanged, known failures, and those that failed
    /// before they could be read (a pipe named on the command line).
    public var filesFound = 0
    /// Images whose content the catalogue did not hold: stored and classified.
    public var newImages = 0
    /// Files whose content was already stored (a copy, a rename): recorded as another path.
    public var newPaths = 0
    /// Files whose size and modification time were unchanged since the last import.
    public var unchanged = 0
    /// Files read (hashed, and decoded when new) this time.
    public var filesRead = 0
    /// Files another importer of the same folder held or had done when this one came to
    /// them (`FileLeases`): not read here.
    public var passedToOthers = 0
    /// Files read whose content the catalogue already held under that same path (a file
    /// whose time changed but not its content, or one that came back): nothing new.
    public var alreadyStored = 0
    /// Files that failed before and have not changed: neither read nor reported again.
    public var knownFailures = 0
    /// Known files that hold another photo now (edited in place, replaced): their path names
    /// the new content's image, and the image it named keeps its history and labels without it.
    public var replaced = 0
    /// Known paths under the imported folders found gone, now marked missing.
    public var missing = 0
    /// Hidden files and folders passed over (without `--hidden`).
    public var hidden = 0
    /// Files passed over by name as no photo (sidecars, videos, documents), per extension.
    public var notPhotos: [String: Int] = [:]
    /// Pipes, sockets and devices inside the folders, passed over unopened.
    public var special = 0
    /// Files that failed this time.
    public var failed: [Failure] = []
    /// The files stored this time (new images and new paths), in commit order, only when
    /// `ImportOptions.listsStoredFiles` asked; not part of the JSON summary.
    public var stored: [StoredFile] = []
    public var seconds = 0.0
    /// New images per label, by the label's name.
    public var labels: [String: Int] = [:]
    public var interrupted = false
    public var runID: Int64?

    public var imagesPerSecond: Double { seconds > 0 ? Double(newImages + newPaths) / seconds : 0 }

    /// Files stored this time: new images and new paths of known ones.
    public var imported: Int { newImages + newPaths }

    /// Files the catalogue already held as they are: unchanged (not read) or read and found stored.
    public var alreadyThere: Int { unchanged + alreadyStored }

    /// Failures grouped by reason, most common first.
    public var failureReasons: [(reason: String, count: Int)] {
        Dictionary(grouping: failed, by: \.reason).map { ($0.key, $0.value.count) }
            .sorted { $0.count > $1.count || ($0.count == $1.count && $0.reason < $1.reason) }
    }

    enum CodingKeys: String, CodingKey {
        case filesFound = "files_found", newImages = "new_images", newPaths = "new_paths", unchanged
        case filesRead = "files_read", passedToOthers = "passed_to_others", alreadyStored = "already_stored"
        case knownFailures = "known_failures", replaced, missing, hidden
        case notPhotos = "not_photos", special = "special_files"
        case failed, seconds, imagesPerSecond = "images_per_second", labels, interrupted, runID = "run"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(filesFound, forKey: .filesFound)
        try container.encode(newImages, forKey: .newImages)
        try container.encode(newPaths, forKey: .newPaths)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(filesRead, forKey: .filesRead)
        // Only where another importer took a share, so that a lone import's summary stays as it was.
        if passedToOthers > 0 { try container.encode(passedToOthers, forKey: .passedToOthers) }
        try container.encode(alreadyStored, forKey: .alreadyStored)
        try container.encode(knownFailures, forKey: .knownFailures)
        try container.encode(replaced, forKey: .replaced)
        try container.encode(missing, forKey: .missing)
        try container.encode(hidden, forKey: .hidden)
        try container.encode(notPhotos, forKey: .notPhotos)
        try container.encode(special, forKey: .special)
        try container.encode(failed, forKey: .failed)
        try container.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
        try container.encode((imagesPerSecond * 10).rounded() / 10, forKey: .imagesPerSecond)
        try container.encode(labels, forKey: .labels)
        try container.encode(interrupted, forKey: .interrupted)
        try container.encodeIfPresent(runID, forKey: .runID)
    }
}
