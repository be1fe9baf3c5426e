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
    /// A value of the images row, as either engine binds it.
    typealias ColumnValue = (any SQLBindable & PostgresBindable)?

    /// The images row's columns and where each value comes from, named once for both
    /// engines' inserts (`insertSQL` here, `PostgresBatch`'s multi-row one): a new column
    /// is one line here beside its migration. `now` is the batch's time in milliseconds.
    static let columns: [(name: String, value: @Sendable (NewImage, _ now: Int64) -> ColumnValue)] = [
        ("sha256", { image, _ in image.sha256.bytes }),
        ("byte_size", { image, _ in image.byteSize }),
        ("width", { image, _ in image.width }),
        ("height", { image, _ in image.height }),
        ("format", { image, _ in image.format }),
        ("thumbnail", { image, _ in image.thumbnail }),
        ("first_imported", { _, now in now }),
        ("taken_at", { image, _ in image.taken?.clock.catalogueMilliseconds }),
        ("taken_offset", { image, _ in image.taken?.offsetMinutes }),
        // A new image's file was read for a capture time (an older one's may not have been).
        ("capture_read", { _, _ in 1 }),
        ("colour", { image, _ in image.colours?.main }),
        ("colours", { image, _ in image.colours?.sharesText }),
        ("colour_on_garment", { image, _ in image.colours.map { $0.onGarment ? 1 : 0 } }),
        ("fingerprint", { image, _ in image.fingerprint?.wholeColumn }),
        ("garment_fingerprint", { image, _ in image.fingerprint?.garmentColumn }),
        ("crop_fingerprints", { image, _ in image.fingerprint?.cropsColumn }),
        ("garment_crop_fingerprints", { image, _ in image.fingerprint?.garmentCropsColumn }),
    ]

    /// The columns' names, as an INSERT lists them.
    static let columnList = columns.map(\.name).joined(separator: ", ")

    /// The row an image adds on SQLite, its values bound by name. Content already stored is
    /// left as it is: the caller finds that image by its hash. Its id is one past every id
    /// present and past the highest an image had and no longer has (`retired_image_ids`,
    /// schema step 30): SQLite's own choice, one past the highest present, gave the id of a
    /// forgotten image to the next photo. (PostgreSQL's identity never gives a number twice.)
    /// Past the largest integer there is (an id only another program writes), SQLite chooses,
    /// as it did before step 30: one past that number is a real, which the id refuses.
    static let insertSQL = """
        INSERT INTO images (id, \(columnList))
        VALUES ((SELECT CASE WHEN last < 9223372036854775807 THEN last + 1 END
                 FROM (SELECT max(coalesce((SELECT max(id) FROM images), 0),
                                  coalesce((SELECT highest FROM retired_image_ids), 0)) AS last)),
                \(columns.map { ":" + $0.name }.joined(separator: ", ")))
        ON CONFLICT (sha256) DO NOTHING
        """

    /// Binds this image to `insertSQL`'s parameters, as first imported at `now` (milliseconds).
    func bind(to statement: Statement, importedAt now: Int64) throws {
        for column in Self.columns {
            try statement.bind(column.value(self, now), to: ":" + column.name)
        }
    }

    /// This image's values, in `columns`' order.
    func values(importedAt now: Int64) -> [ColumnValue] {
        Self.columns.map { $0.value(self, now) }
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
