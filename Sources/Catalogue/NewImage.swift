import Foundation

/// An image to add, with where it was seen and, usually, how it was classified.
public struct NewImage: Sendable {
    public var sha256: SHA256Digest
    public var byteSize: Int
    public var width: Int
    public var height: Int
    /// The file format, e.g. "jpeg" or "png".
    public var format: String
    /// JPEG bytes of the thumbnail, if one was made.
    public var thumbnail: [UInt8]?
    /// The file the image was read from, if it came from a file.
    public var file: SeenFile?
    /// The run's classification of it; nil stores the image unclassified.
    public var classification: NewClassification?
    /// When the photo was taken, as its file says; nil when it does not.
    public var taken: TakenTime?
    /// The garment's main colours, measured on the thumbnail; nil leaves it to be measured.
    public var colours: StoredColours?
    /// The thumbnail's perceptual fingerprints; nil leaves them to be taken.
    public var fingerprint: StoredFingerprint?

    public init(sha256: SHA256Digest, byteSize: Int, width: Int, height: Int, format: String,
                thumbnail: [UInt8]? = nil, file: SeenFile? = nil, classification: NewClassification? = nil,
                taken: TakenTime? = nil, colours: StoredColours? = nil, fingerprint: StoredFingerprint? = nil) {
        self.sha256 = sha256
        self.byteSize = byteSize
        self.width = width
        self.height = height
        self.format = format
        self.thumbnail = thumbnail
        self.file = file
        self.classification = classification
        self.taken = taken
        self.colours = colours
        self.fingerprint = fingerprint
    }
}

extension NewImage {
    /// The row an image adds, its values bound by name beside the SQL that names them.
    /// Content already stored is left as it is: the caller finds that image by its hash.
    static let insertSQL = """
        INSERT INTO images (sha256, byte_size, width, height, format, thumbnail, first_imported, taken_at, taken_offset,
                            capture_read, colour, colours, colour_on_garment, fingerprint, garment_fingerprint)
        VALUES (:sha256, :byte_size, :width, :height, :format, :thumbnail, :first_imported, :taken_at, :taken_offset, 1,
                :colour, :colours, :colour_on_garment, :fingerprint, :garment_fingerprint)
        ON CONFLICT (sha256) DO NOTHING
        """

    /// Binds this image to `insertSQL`'s parameters, as first imported at `now` (milliseconds).
    func bind(to statement: Statement, importedAt now: Int64) throws {
        try statement.bind(sha256.bytes, to: ":sha256")
        try statement.bind(byteSize, to: ":byte_size")
        try statement.bind(width, to: ":width")
        try statement.bind(height, to: ":height")
        try statement.bind(format, to: ":format")
        try statement.bind(thumbnail, to: ":thumbnail")
        try statement.bind(now, to: ":first_imported")
        try statement.bind(taken?.clock.catalogueMilliseconds, to: ":taken_at")
        try statement.bind(taken?.offsetMinutes, to: ":taken_offset")
        try statement.bind(colours?.main, to: ":colour")
        try statement.bind(colours?.sharesText, to: ":colours")
        try statement.bind(colours.map { $0.onGarment ? 1 : 0 }, to: ":colour_on_garment")
        try statement.bind(fingerprint?.wholeColumn, to: ":fingerprint")
        try statement.bind(fingerprint?.garmentColumn, to: ":garment_fingerprint")
    }
}

/// A file as found on disk: enough to skip it next time if it has not changed.
public struct SeenFile: Sendable, Hashable {
    public var path: String
    public var size: Int64
    /// Modification time, nanoseconds since 1970 UTC (as `stat` gives it).
    public var modificationTimeNanoseconds: Int64

    public init(path: String, size: Int64, modificationTimeNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
    }
}

/// One model output for one image: ten logits, the argmax label, the softmax confidence.
public struct NewClassification: Sendable, Equatable {
    public var logits: [Float]
    public var label: Int
    public var confidence: Double
    /// The prepared tensor the model took, to keep for the image under the run's recipe
    /// (`prepared_tensors`), so that a re-run under that recipe need not prepare it again;
    /// nil keeps nothing new (a re-run that read the kept one).
    public var preparedTensor: [Float]?

    public init(logits: [Float], label: Int, confidence: Double, preparedTensor: [Float]? = nil) {
        self.logits = logits
        self.label = label
        self.confidence = confidence
        self.preparedTensor = preparedTensor
    }
}

/// What `insertImages` did with one item.
public struct InsertedImage: Sendable, Equatable {
    public let image: ImageID
    /// False when an image with the same hash was already stored.
    public let isNew: Bool
    /// Nil when no classification was given, or the image already had one in this run.
    public let classification: ClassificationID?
    /// True when the image came with a file whose path did not name this image before
    /// (a new file, a copy, a rename); false when it did (a file whose time changed,
    /// or that came back) and when no file came with it.
    public let pathIsNew: Bool
}

/// A path recorded for content already stored (`RunBatch.recordPaths`).
public struct RecordedPath: Sendable, Equatable {
    /// The image the path names now.
    public let image: ImageID
    /// True when the path did not name this image before (a copy, a rename, a file
    /// replaced by other known content); false when it did (its time changed, or it came back).
    public let isNew: Bool
}
