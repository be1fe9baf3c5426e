internal import Catalogue
import Foundation

/// `wardrobe list`: images by their effective label (a person's, else the
/// model's current one), filtered, sorted and paged by the catalogue's
/// indexes, handed out one row at a time.
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
        /// By effective label, then highest confidence first.
        case label

        var catalogueOrder: ClassificationQuery.Order {
            switch self {
            case .confidence: .confidenceDescending
            case .uncertain: .confidenceAscending
            case .newest: .newestImported
            case .oldest: .oldestImported
            case .recent: .newestClassified
            case .id: .imageID
            case .label: .effectiveLabel
            }
        }
    }

    public struct Options: Sendable {
        /// The effective label, 0...9 or `Catalogue.noneLabel`.
        public var label: Int?
        public var minConfidence: Double?
        public var maxConfidence: Double?
        /// Only images first imported in [since, until).
        public var since: Date?
        public var until: Date?
        /// Only images whose current label came from this model (see `ModelReference`).
        public var model: String?
        /// True: only images a person labelled; false: only those they did not.
        public var corrected: Bool?
        /// Only images none of whose files was there at the last look.
        public var missing: Bool
        /// Only images with a path matching this (a shell pattern; plain
        /// text matches anywhere in the path).
        public var path: String?
        public var order: Order
        public var limit: Int?
        public var offset: Int

        public init(label: Int? = nil, minConfidence: Double? = nil, maxConfidence: Double? = nil,
                    since: Date? = nil, until: Date? = nil, model: String? = nil, corrected: Bool? = nil,
                    missing: Bool = false, path: String? = nil,
                    order: Order = .confidence, limit: Int? = nil, offset: Int = 0) {
            self.label = label
            self.corrected = corrected
            self.missing = missing
            self.path = path
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
        /// The effective label: the person's when they set one, else the model's.
        public var label: String
        /// True when `label` is a person's.
        public var labelledByPerson: Bool
        /// The model's current label and confidence, beside a person's.
        public var modelLabel: String
        public var confidence: Double
        public var model: String
        public var recipe: String
        public var classified: Date
        public var imported: Date
        public var width: Int
        public var height: Int
        public var format: String
        /// The best path: an existing one, the most recently seen.
        public var path: String?
        /// True when no path of the image existed at the last look.
        public var pathMissing: Bool

        public static let columns = ["id", "sha256", "label", "label_source", "model_label", "confidence", "model",
                                     "recipe", "classified_at", "imported_at", "width", "height", "format", "path",
                                     "path_state"]

        /// `present`, `missing`, or `none` when the image has no path at all.
        public var pathState: String { path == nil ? "none" : pathMissing ? "missing" : "present" }

        public var values: [RowValue] {
            [.integer(id), .text(sha256), .text(label), .text(labelledByPerson ? "person" : "model"), .text(modelLabel),
             .number(confidence), .text(model), .text(recipe), .date(classified), .date(imported),
             .integer(Int64(width)), .integer(Int64(height)), .text(format), .text(path), .text(pathState)]
        }
    }

    let catalogue: any CatalogueStore
    private let modelNames: [ModelID: String]

    init(catalogue: any CatalogueStore) throws {
        self.catalogue = catalogue
        modelNames = try ModelReference.names(in: catalogue)
    }

    /// The catalogue query for `options`; a model that is not registered is an error.
    func query(_ options: Options) throws -> ClassificationQuery {
        var query = ClassificationQuery(label: options.label, corrected: options.corrected, missing: options.missing,
                                        pathPattern: options.path.map(ImageListing.globPattern),
                                        order: options.order.catalogueOrder, limit: options.limit, offset: options.offset)
        if options.minConfidence != nil || options.maxConfidence != nil {
            let low = options.minConfidence ?? 0, high = options.maxConfidence ?? 1
            // Crossed bounds make no range (a closed range traps on them); `list` refuses them as
            // wrong usage first, and any other caller gets this error, never a crash.
            guard low <= high else {
                throw WardrobeError.invalidArgument("the lowest confidence (\(low)) is above the highest (\(high))")
            }
            query.confidence = low...high
        }
        if options.since != nil || options.until != nil {
            // An open end is about 31,700 years away (in the catalogue's milliseconds, far from
            // overflowing); bounds beyond each other match nothing, as they make no range.
            let lower = options.since ?? Date(timeIntervalSince1970: -1e12)
            query.imported = lower..<max(lower, options.until ?? Date(timeIntervalSince1970: 1e12))
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
        Row(id: item.image.rawValue, sha256: item.sha256.hex, label: LabelMatcher.name(of: item.effectiveLabel),
            labelledByPerson: item.correctedLabel != nil, modelLabel: LabelMatcher.name(of: item.label),
            confidence: item.confidence, model: modelNames[item.model] ?? "model \(item.model)",
            recipe: "\(item.recipe.name)@\(item.recipe.version)", classified: item.classifiedAt,
            imported: item.firstImported, width: item.width, height: item.height, format: item.format,
            path: item.path, pathMissing: item.pathMissing)
    }

    /// `--path` text as a GLOB pattern: a shell pattern (`*`, `?`, `[...]`)
    /// as it is; plain text matches anywhere in the path.
    static func globPattern(_ text: String) -> String {
        text.contains(where: { "*?[".contains($0) }) ? text : "*" + text + "*"
    }
}
