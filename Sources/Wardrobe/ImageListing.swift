import Catalogue
import Foundation

/// `wardrobe list`: images by their current classification, filtered,
/// sorted and paged by the catalogue's indexes, handed out one row at a time.
public struct ImageListing {
    /// How rows are ordered; the raw values are what `--sort` accepts.
    public enum Order: String, Sendable, CaseIterable {
        /// Highest confidence first (the default; with `--label`, an index walk).
        case confidence
        /// Lowest confidence first: the doubtful ones.
        case uncertain
        /// Most recently imported first.
        case newest
        /// First imported first.
        case oldest
        /// Most recently (re)classified first.
        case recent
        /// By image id.
        case id

        var catalogueOrder: ClassificationQuery.Order {
            switch self {
            case .confidence: .confidenceDescending
            case .uncertain: .confidenceAscending
            case .newest: .newestImported
            case .oldest: .oldestImported
            case .recent: .newestClassified
            case .id: .imageID
            }
        }
    }

    public struct Options: Sendable {
        public var label: Int?
        public var minConfidence: Double?
        public var maxConfidence: Double?
        /// Only images first imported in [since, until).
        public var since: Date?
        public var until: Date?
        /// Only images whose current label came from this model (see `ModelReference`).
        public var model: String?
        public var order: Order
        public var limit: Int?
        public var offset: Int

        public init(label: Int? = nil, minConfidence: Double? = nil, maxConfidence: Double? = nil,
                    since: Date? = nil, until: Date? = nil, model: String? = nil,
                    order: Order = .confidence, limit: Int? = nil, offset: Int = 0) {
            self.label = label
            self.minConfidence = minConfidence
            self.maxConfidence = maxConfidence
            self.since = since
            self.until = until
            self.model = model
            self.order = order
            self.limit = limit
            self.offset = offset
        }
    }

    /// One listed image, ready to print.
    public struct Row: Sendable {
        public var id: Int64
        public var sha256: String
        public var label: String
        public var confidence: Double
        /// A person's label, when the image was corrected; it outranks `label`.
        public var correctedLabel: String?
        public var model: String
        public var classified: Date
        public var imported: Date
        public var width: Int
        public var height: Int
        public var format: String
        public var path: String?

        public static let columns = ["id", "sha256", "label", "confidence", "corrected_label", "model",
                                     "classified_at", "imported_at", "width", "height", "format", "path"]

        public var values: [RowValue] {
            [.integer(id), .text(sha256), .text(label), .number(confidence), .text(correctedLabel), .text(model),
             .date(classified), .date(imported), .integer(Int64(width)), .integer(Int64(height)), .text(format),
             .text(path)]
        }
    }

    let catalogue: Catalogue
    private let modelNames: [ModelID: String]

    public init(catalogue: Catalogue) throws {
        self.catalogue = catalogue
        modelNames = try ModelReference.names(in: catalogue)
    }

    /// The catalogue query for `options`; a model that is not registered is an error.
    public func query(_ options: Options) throws -> ClassificationQuery {
        var query = ClassificationQuery(label: options.label, order: options.order.catalogueOrder,
                                        limit: options.limit, offset: options.offset)
        if options.minConfidence != nil || options.maxConfidence != nil {
            query.confidence = (options.minConfidence ?? 0)...(options.maxConfidence ?? 1)
        }
        if options.since != nil || options.until != nil {
            query.imported = (options.since ?? .distantPast)..<(options.until ?? .distantFuture)
        }
        if let model = options.model {
            query.model = try ModelReference.resolve(model, in: catalogue).id
        }
        return query
    }

    /// Calls `body` for each row, one in memory at a time.
    public func forEach(_ options: Options, _ body: (Row) throws -> Void) throws {
        try catalogue.forEachCurrentClassification(try query(options)) { try body(row($0)) }
    }

    /// How many images match, ignoring limit and offset.
    public func count(_ options: Options) throws -> Int {
        try catalogue.countCurrentClassifications(try query(options))
    }

    func row(_ item: CurrentClassification) -> Row {
        Row(id: item.image.rawValue, sha256: item.sha256.hex, label: ClothingClassifier.labels[item.label],
            confidence: item.confidence, correctedLabel: item.correctedLabel.map { ClothingClassifier.labels[$0] },
            model: modelNames[item.model] ?? "model \(item.model)", classified: item.classifiedAt,
            imported: item.firstImported, width: item.width, height: item.height, format: item.format,
            path: item.path)
    }
}
