import Foundation

/// What the use cases ask of a catalogue's storage, in their words: images,
/// paths, runs and their batches, classifications, a person's corrections,
/// models and their adoption, failures, reports, backup. Nothing in it is
/// SQL or SQLite: `Catalogue`, one SQLite file, is its first implementation;
/// how a store keeps its files, its pragmas and its checks stay behind it.
/// One value is one connection, for one thread at a time
/// (`CatalogueStorage.reader` gives another thread its own).
public protocol CatalogueStore: AnyObject {
    /// Where the store lives, as errors and messages name it (a server's without its password).
    var path: String { get }
    /// What opens another connection to the same store (`CatalogueStorage.reader`): a server's
    /// connection string, password and all, so it is never printed or stored.
    var location: String { get }
    /// The machine this connection records paths for; the paths of others are only shown (`Machine`).
    var machine: String { get }
    /// Runs whose process died before closing them, marked interrupted by this
    /// opening (for writing), so the command can say so, once.
    var abandonedRuns: [RunRecord] { get }
    /// A consistent snapshot for several reads.
    func read<T>(_ body: () throws -> T) throws -> T

    // Images and their paths.
    func image(_ id: ImageID) throws -> ImageRecord?
    func image(sha256: SHA256Digest) throws -> ImageRecord?
    func image(hashPrefix prefix: String) throws -> ImageRecord?
    func image(path: String) throws -> ImageRecord?
    func containsImage(sha256: SHA256Digest) throws -> Bool
    func knownPath(_ path: String) throws -> KnownPath?
    func knownPaths(under folder: String?) throws -> [KnownPath]
    func anotherFileShowsAs(_ path: String) throws -> Bool
    /// `knownPath`, `anotherFileShowsAs` and `failingFile` of each of `paths`, in their order.
    func lookUp(_ paths: [String]) throws -> [PathLookup]
    func paths(of image: ImageID) throws -> [KnownPath]
    func thumbnail(of image: ImageID) throws -> [UInt8]?
    func thumbnail(sha256: SHA256Digest) throws -> [UInt8]?
    /// The tensor a run under `recipe` classified `image` from, as kept; nil when none is.
    func preparedTensor(of image: ImageID, recipe: Recipe) throws -> [Float]?
    /// `preparedTensor` of each of `images` that has one, by image.
    func preparedTensors(of images: [ImageID], recipe: Recipe) throws -> [ImageID: [Float]]
    /// `thumbnail(of:)` of each of `images` that has one, by image.
    func thumbnails(of images: [ImageID]) throws -> [ImageID: [UInt8]]
    func recordLook(present: [String], missing: [String], dropMissing: Bool, at date: Date) throws -> PathCheck
    func forget(_ images: [ImageID]) throws -> ForgetReport
    /// Overwrites in the file what an earlier `forget` removed but left there: one stopped
    /// between its commit and its checkpoint (killed, the power gone), or whose checkpoint a
    /// reader held back. False while a reader still holds some of it back.
    @discardableResult
    func finishForgetting() throws -> Bool
    /// Images no file was read for a capture time yet (imported before it was kept), by id.
    func imagesAwaitingCaptureTime(after: ImageID?, limit: Int) throws -> [ImageID]
    /// Records what a file of `image` said of when it was taken (nil: nothing), once.
    func recordCaptureTime(_ taken: TakenTime?, of image: ImageID) throws
    /// Images with a thumbnail whose garment colours were never measured, by id; with
    /// `again`, every image with a thumbnail (their colours are to be measured again).
    func imagesAwaitingColours(after: ImageID?, limit: Int, again: Bool) throws -> [ImageID]
    /// The version of the rule that measured the catalogue's colours, nil when none was recorded.
    func colourRule() throws -> Int?
    /// Records that every colour the catalogue holds was measured by `rule`.
    func recordColourRule(_ rule: Int, at date: Date) throws
    /// Stores the garment colours measured on `image`'s thumbnail.
    func recordColours(_ colours: StoredColours, of image: ImageID) throws
    /// Images with a thumbnail whose fingerprints were never taken, by id.
    func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID]
    /// Stores the fingerprints taken of `image`'s thumbnail.
    func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws
    /// Every image with fingerprints, with its chosen colour, by id.
    func fingerprintedImages() throws -> [FingerprintedImage]
    /// Every fingerprinted image's id and fingerprints, by id.
    func fingerprints() throws -> [(id: ImageID, fingerprint: StoredFingerprint)]
    /// The colours, logits and label of each of `images` that exists, in no order.
    func lookalikeFacts(_ images: [ImageID]) throws -> [LookalikeFacts]
    /// Every pair of images a person said is not the same photo.
    func dismissedPairs() throws -> Set<DismissedPair>
    /// Keeps every pair of `images` as not the same photo, in one transaction.
    func dismissDuplicates(_ images: [ImageID], at date: Date) throws

    // Runs: opened, written in batches (each one transaction), closed.
    func openRun(command: String, model: ModelID, recipe: Recipe, counts: RunCounts, at date: Date) throws -> RunID
    func writing(run: RunID, at date: Date, _ body: (any CatalogueBatch) throws -> RunCounts) throws
    func closeRun(_ run: RunID, counts: RunCounts, outcome: RunOutcome, at date: Date) throws

    // Classifications: current, listed, paged, counted, the history of one image.
    func currentClassification(of image: ImageID) throws -> CurrentClassification?
    func forEachCurrentClassification(_ query: ClassificationQuery, _ body: (CurrentClassification) throws -> Void) throws
    func countCurrentClassifications(_ query: ClassificationQuery) throws -> Int
    func galleryPage(_ query: GalleryQuery) throws -> [CurrentClassification]
    func labelCounts() throws -> [Int: Int]
    func history(of image: ImageID) throws -> [HistoryEntry]
    func reclassificationCandidates(_ filter: ReclassificationFilter) throws -> [ReclassificationCandidate]
    func forEachClassificationWithHash(_ body: (ClassificationRecord, SHA256Digest) throws -> Void) throws

    // A person's corrections.
    func correct(_ images: [ImageID], _ request: CorrectionRequest, command: String, at date: Date) throws -> [CorrectionOutcome]
    func personLabel(of image: ImageID) throws -> Int?
    func corrections(of image: ImageID) throws -> [Correction]
    func forEachLabelledImage(_ body: (LabelledImage) throws -> Void) throws
    func personLabelPairs() throws -> [(model: Int, person: Int, images: Int)]
    func unlabelledImageIDs() throws -> [ImageID]
    func forEachUnlabelledImage(_ ids: [ImageID], _ body: (UnlabelledImage) throws -> Void) throws
    /// Sets a person's colour (a palette name) on each image, or takes it back (nil).
    func setColour(_ images: [ImageID], _ colour: String?, command: String, at date: Date) throws -> [ColourOutcome]
    func colourCorrections(of image: ImageID) throws -> [ColourCorrection]

    // Models and which one the catalogue uses.
    func registerModel(_ model: NewModel, at date: Date) throws -> ModelID
    func model(_ id: ModelID) throws -> ModelRecord?
    func models() throws -> [ModelRecord]
    func modelStandings() throws -> [ModelStanding]
    func imageIDs(withSHA256 hashes: [SHA256Digest]) throws -> Set<ImageID>
    func adoptModel(_ model: ModelID?, file: [UInt8]?, sourcePath: String?, command: String, at date: Date) throws -> Int64
    func adoptedModel() throws -> ModelAdoption?
    func adoptedModelFile(_ adoption: Int64) throws -> [UInt8]?

    // Leases on files, by which several importers split one folder (`file_leases`).
    /// Takes the lease of each of `files` (this machine's) for `owner` until `until`, unless
    /// another holder's lease lasts past `date`, or the file is stored or failing with its
    /// size and time now: whether it was taken, in the files' order.
    func leaseFiles(_ files: [SeenFile], owner: String, until: Date, at date: Date) throws -> [Bool]
    // Leases on images, by which several reclassifiers split one catalogue (`image_leases`).
    /// The split a reclassification with `model` and `recipe` begun now belongs to.
    func reclassificationSplit(model: ModelID, recipe: Recipe) throws -> ReclassificationSplit
    /// Takes the lease of each of `images` for `owner` until `until`, unless another holder's
    /// lease lasts past `date` or `split` has done the image: what became of each, in order.
    func leaseImages(_ images: [ImageID], in split: ReclassificationSplit, owner: String,
                     until: Date, at date: Date) throws -> [ImageLease]
    /// Moves the end of every lease (files' and images') `owner` holds to `until` (its heartbeat).
    func renewLeases(owner: String, until: Date) throws
    /// Gives up every lease `owner` holds.
    func releaseLeases(owner: String) throws
    /// The holders of this machine's file leases and of every image lease (`RunOwner`s).
    func leaseOwners() throws -> Set<String>

    // Files that failed to import.
    func failingFile(_ path: String) throws -> FailingFile?
    func failingFiles(under folder: String?) throws -> [FailingFile]
    func stopFailing(_ paths: [String]) throws

    // Reports and copies.
    func stats(cache: StatsCache?) throws -> CatalogueStats
    func backup(to path: String, shouldStop: @escaping @Sendable () -> Bool) throws -> BackupReport

    // Whole copies between catalogues of either engine (`CatalogueCopier`).
    /// The schema step the catalogue is at.
    var version: Int { get throws }
    /// The names of the catalogue's tables, the engine's own bookkeeping left out.
    func tableNames() throws -> Set<String>
    /// The columns of `table` that hold values (not those computed from others), in the table's order.
    func columns(of table: CatalogueTable) throws -> [CatalogueTable.Column]
    /// One line per kind of row that refers to a row not there (`classifications` to `images`,
    /// with how many), empty when every reference leads somewhere. A program other than
    /// wardrobe can leave such rows in SQLite, whose foreign keys hold only on connections that
    /// turn them on (`sqlite3`'s do not); PostgreSQL's hold on every connection.
    func rowsReferringNowhere() throws -> [String]
    /// Calls `body` with each row of `table`, in the order of its key, its values in the order of `columns`.
    func forEachRow(of table: CatalogueTable, columns: [CatalogueTable.Column], _ body: ([StoredValue]) throws -> Void) throws
    /// Runs `body` in one transaction with the catalogue's own triggers off, so that the rows it writes
    /// stay as they were written (a copy writes the rows the triggers made elsewhere); all of it is
    /// committed when `body` returns, nothing when it throws.
    func loading(_ body: (any TableWriter) throws -> Void) throws
}

/// What writes rows into the tables of a catalogue, inside `CatalogueStore.loading(_:)`.
public protocol TableWriter {
    func write(_ rows: [[StoredValue]], to table: CatalogueTable, columns: [CatalogueTable.Column]) throws
}

/// One batch of a run's writes, inside `CatalogueStore.writing(run:at:_:)`: all
/// of it is committed together with the run's counts, or none of it.
public protocol CatalogueBatch {
    var run: RunID { get }
    @discardableResult
    func insertImages(_ images: [NewImage], known: KnownContent) throws -> [InsertedImage]
    /// Nil for an image this run classified already, and for one no longer there (forgotten
    /// since the run read it), which gets nothing.
    @discardableResult
    func addClassifications(_ items: [(image: ImageID, classification: NewClassification)]) throws -> [ClassificationID?]
    @discardableResult
    func recordPaths(_ files: [(file: SeenFile, sha256: SHA256Digest)]) throws -> [RecordedPath?]
    func recordFailure(path: String, reason: String, file: SeenFile?) throws
}

/// What callers leave out: now, no folder, everything.
extension CatalogueStore {
    public func knownPaths() throws -> [KnownPath] { try knownPaths(under: nil) }
    public func failingFiles() throws -> [FailingFile] { try failingFiles(under: nil) }
    /// The paths of `image` on this machine, the files a command may open (see `paths(of:)`).
    public func pathsHere(of image: ImageID) throws -> [KnownPath] { try paths(of: image).filter { $0.machine == machine } }
    public func stats() throws -> CatalogueStats { try stats(cache: nil) }
    public func registerModel(_ model: NewModel) throws -> ModelID { try registerModel(model, at: Date()) }
    public func openRun(command: String, model: ModelID, recipe: Recipe) throws -> RunID {
        try openRun(command: command, model: model, recipe: recipe, counts: RunCounts(), at: Date())
    }
    public func writing(run: RunID, _ body: (any CatalogueBatch) throws -> RunCounts) throws {
        try writing(run: run, at: Date(), body)
    }
    public func closeRun(_ run: RunID, counts: RunCounts, outcome: RunOutcome = .finished) throws {
        try closeRun(run, counts: counts, outcome: outcome, at: Date())
    }
    public func correct(_ images: [ImageID], _ request: CorrectionRequest, command: String) throws -> [CorrectionOutcome] {
        try correct(images, request, command: command, at: Date())
    }
    public func setColour(_ images: [ImageID], _ colour: String?, command: String) throws -> [ColourOutcome] {
        try setColour(images, colour, command: command, at: Date())
    }
    public func recordLook(present: [String], missing: [String], dropMissing: Bool = false) throws -> PathCheck {
        try recordLook(present: present, missing: missing, dropMissing: dropMissing, at: Date())
    }
    @discardableResult
    public func adoptModel(_ model: ModelID?, file: [UInt8]? = nil, sourcePath: String? = nil, command: String) throws -> Int64 {
        try adoptModel(model, file: file, sourcePath: sourcePath, command: command, at: Date())
    }
    public func openRun(command: String, model: ModelID, recipe: Recipe, counts: RunCounts) throws -> RunID {
        try openRun(command: command, model: model, recipe: recipe, counts: counts, at: Date())
    }
}

extension CatalogueBatch {
    public func recordFailure(path: String, reason: String) throws { try recordFailure(path: path, reason: reason, file: nil) }
}
