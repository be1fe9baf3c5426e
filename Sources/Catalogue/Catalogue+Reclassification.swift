import Foundation

/// Which stored images a reclassification re-runs. Filters apply to each
/// image's current classification; every filter left nil matches everything.
public struct ReclassificationFilter: Sendable, Equatable {
    /// Only images whose effective label (a person's, else the model's) is this.
    public var label: Int?
    /// Only images whose current confidence is below this.
    public var confidenceBelow: Double?
    /// Only images first imported at or after this time.
    public var importedSince: Date?
    /// Only these images.
    public var images: [ImageID]?

    public init(label: Int? = nil, confidenceBelow: Double? = nil, importedSince: Date? = nil, images: [ImageID]? = nil) {
        self.label = label
        self.confidenceBelow = confidenceBelow
        self.importedSince = importedSince
        self.images = images
    }
}

/// An image a reclassification will re-run, with its classification before.
public struct ReclassificationCandidate: Sendable, Equatable {
    public let image: ImageID
    /// The current label and confidence, nil for an image never classified.
    public let label: Int?
    public let confidence: Double?
    /// The label a person gave (0...9 or `Catalogue.noneLabel`), which a run never changes.
    public let personLabel: Int?

    /// True when a person has set the label (a run never changes that).
    public var isCorrected: Bool { personLabel != nil }

    public init(image: ImageID, label: Int?, confidence: Double?, personLabel: Int?) {
        self.image = image
        self.label = label
        self.confidence = confidence
        self.personLabel = personLabel
    }
}

extension Catalogue {
    /// Every image with a thumbnail that `filter` selects, in id order, with
    /// its current classification. Only ids and numbers: thumbnails are read
    /// one at a time with `thumbnail(of:)` by whoever decodes them.
    public func reclassificationCandidates(_ filter: ReclassificationFilter) throws -> [ReclassificationCandidate] {
        var conditions = ["i.thumbnail IS NOT NULL"]
        var arguments: SQLArguments = [:]
        if let label = filter.label {
            conditions.append("coalesce(c.effective_label, (SELECT label FROM corrections WHERE image_id = i.id ORDER BY id DESC LIMIT 1)) = "
                              + arguments.add(label, as: "label"))
        }
        if let below = filter.confidenceBelow {
            conditions.append("c.confidence < \(arguments.add(below, as: "below"))")
        }
        if let since = filter.importedSince {
            conditions.append("i.first_imported >= \(arguments.add(since.catalogueMilliseconds, as: "since"))")
        }
        if let images = filter.images {
            // One bound JSON array rather than a statement per list length.
            let list = "[" + images.map(\.description).joined(separator: ",") + "]"
            conditions.append("i.id IN (SELECT value FROM json_each(\(arguments.add(list, as: "images"))))")
        }
        let sql = """
            SELECT i.id, c.label, c.confidence,
                   (SELECT label FROM corrections WHERE image_id = i.id ORDER BY id DESC LIMIT 1) AS person_label
            FROM images AS i LEFT JOIN current_classifications AS c ON c.image_id = i.id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY i.id
            """
        let statement = try database.prepare(sql)
        try statement.bind(arguments)
        let id = statement.column("id"), label = statement.column("label"), confidence = statement.column("confidence")
        let personLabel = statement.column("person_label")
        var candidates: [ReclassificationCandidate] = []
        while try statement.step() {
            let unclassified = statement.isNull(label)
            // Named only when a value is refused: a string per candidate would cost every reclassify.
            let name = { "image \(statement.int64(id))" }
            candidates.append(ReclassificationCandidate(
                image: ImageID(statement.int64(id)),
                label: unclassified ? nil : try statement.label(label, upTo: Catalogue.labelCount - 1, row: name()),
                confidence: unclassified ? nil : try statement.confidence(confidence, row: name()),
                personLabel: statement.isNull(personLabel) ? nil
                    : try statement.label(personLabel, upTo: Catalogue.noneLabel, row: name())))
        }
        return candidates
    }

    /// Every classification ever stored with its image's hash, in the order
    /// they were made, one row in memory at a time (for `export --all`).
    /// `body` must not write to this catalogue.
    public func forEachClassificationWithHash(_ body: (ClassificationRecord, SHA256Digest) throws -> Void) throws {
        let statement = try database.prepare("""
            SELECT \(ClassificationColumns.list), i.sha256
            FROM classifications AS c JOIN images AS i ON i.id = c.image_id ORDER BY c.id
            """)
        let classification = ClassificationColumns(statement)
        let sha256 = statement.column("sha256")
        while try statement.step() {
            try body(try classification.record(statement), try SHA256Digest(bytes: statement.blob(sha256)))
        }
    }
}
