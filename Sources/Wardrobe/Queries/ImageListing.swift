internal import Catalogue
import Foundation
import Imaging

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
        /// Most recently taken first (by the camera's clock); photos that do not say, last.
        case taken
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
            case .taken: .newestTaken
            case .oldest: .oldestImported
            case .recent: .newestClassified
            case .id: .imageID
            case .label: .effectiveLabel
            }
        }
    }

    public struct Options: Sendable {
        /// Which images.
        public var filter: ImageFilter
        public var order: Order
        public var limit: Int?
        public var offset: Int

        public init(filter: ImageFilter = ImageFilter(), order: Order = .confidence, limit: Int? = nil, offset: Int = 0) {
            self.filter = filter
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
        /// When the photo was taken (see `ImageDetails.taken`); nil when its file does not say.
        public var taken: String?
        public var width: Int
        public var height: Int
        public var format: String
        /// The best path: an existing one, this machine's first, the most recently seen; `machine:path` when it was
        /// seen on another machine (`Machine.shown`).
        public var path: String?
        /// True when no path of the image existed at the last look.
        public var pathMissing: Bool
        /// The garment's colour (a `ClothingColour` name): a person's, else the measured one; nil
        /// when neither is there.
        public var colour: String?
        /// Its main colours with their shares ("blue 62%, grey 21%"); nil when never measured.
        public var colours: String?
        /// True when `colour` is a person's (`wardrobe colour`), false when it was measured.
        public var colouredByPerson: Bool

        public static let columns = ["id", "sha256", "label", "label_source", "model_label", "confidence", "model",
                                     "recipe", "classified_at", "imported_at", "width", "height", "format", "path",
                                     "path_state", "taken_at", "colour", "colours", "colour_source"]

        /// Where `colour` came from, as `label_source` says it of the label: `person` or
        /// `measured`; nil when the image has no colour.
        public var colourSource: String? { colour == nil ? nil : colouredByPerson ? "person" : "measured" }

        /// `present`, `missing`, or `none` when the image has no path at all.
        public var pathState: String { path == nil ? "none" : pathMissing ? "missing" : "present" }

        public var values: [RowValue] {
            [.integer(id), .text(sha256), .text(label), .text(labelledByPerson ? "person" : "model"), .text(modelLabel),
             .number(confidence), .text(model), .text(recipe), .date(classified), .date(imported),
             .integer(Int64(width)), .integer(Int64(height)), .text(format), .text(path), .text(pathState), .text(taken),
             .text(colour), .text(colours), .text(colourSource)]
        }
    }

    let catalogue: any CatalogueStore

    /// The catalogue query for `options` (see `ImageFilter.selection`).
    func query(_ options: Options) throws -> ClassificationQuery {
        ClassificationQuery(try options.filter.selection(in: catalogue), order: options.order.catalogueOrder,
                            limit: options.limit, offset: options.offset)
    }

    /// Calls `body` for each row, one in memory at a time. The models' names are read here, not
    /// for a count, which names none (on a server, a round trip saved).
    public func forEach(_ options: Options, _ body: (Row) throws -> Void) throws {
        let modelNames = try ModelReference.names(in: catalogue)
        try catalogue.forEachCurrentClassification(try query(options)) { try body(row($0, modelNames: modelNames)) }
    }

    /// How many images match, ignoring limit and offset.
    public func count(_ options: Options) throws -> Int {
        try catalogue.countCurrentClassifications(try query(options))
    }

    func row(_ item: CurrentClassification, modelNames: [ModelID: String]) -> Row {
        Row(id: item.image.rawValue, sha256: item.sha256.hex, label: LabelMatcher.name(of: item.effectiveLabel),
            labelledByPerson: item.correctedLabel != nil, modelLabel: LabelMatcher.name(of: item.label),
            confidence: item.confidence, model: modelNames[item.model] ?? "model \(item.model)",
            recipe: "\(item.recipe.name)@\(item.recipe.version)", classified: item.classifiedAt,
            imported: item.firstImported, taken: item.taken.map { CaptureTime($0).text }, width: item.width, height: item.height, format: item.format,
            path: item.path.map { Machine.shown($0, on: item.pathMachine, from: catalogue.machine) },
            pathMissing: item.pathMissing, colour: item.personColour ?? item.colours?.main,
            colours: item.colours.map(Self.sharesText), colouredByPerson: item.personColour != nil)
    }

    /// "blue 62%, grey 21%": the main colours with their shares of the garment.
    static func sharesText(_ colours: StoredColours) -> String {
        colours.shares.map { "\($0.name) \(Int(($0.share * 100).rounded()))%" }.joined(separator: ", ")
    }
}
