import Catalogue
import Foundation
import Imaging

/// `wardrobe show` and `wardrobe history`: everything the catalogue knows
/// about one image, gathered from one snapshot.
public struct ImageDetails: Sendable, Encodable {
    public struct Path: Sendable, Encodable {
        public var path: String
        @ISO8601Encoded public var lastSeen: Date
        enum CodingKeys: String, CodingKey { case path, lastSeen = "last_seen" }
    }

    public struct Guess: Sendable, Encodable {
        public var label: String
        public var probability: Double
    }

    /// One classification, in the order they were made.
    public struct Entry: Sendable, Encodable {
        public var classification: Int64
        public var run: Int64
        public var command: String
        public var model: String
        public var recipe: String
        public var label: String
        public var confidence: Double
        @ISO8601Encoded public var classifiedAt: Date
        /// True when the label differs from the entry before (never for the first).
        public var labelChanged: Bool

        enum CodingKeys: String, CodingKey {
            case classification, run, command, model, recipe, label, confidence
            case classifiedAt = "classified_at", labelChanged = "label_changed"
        }
    }

    public struct Correction: Sendable, Encodable {
        public var label: String
        @ISO8601Encoded public var correctedAt: Date
        enum CodingKeys: String, CodingKey { case label, correctedAt = "corrected_at" }
    }

    public var id: Int64
    public var sha256: String
    public var byteSize: Int
    public var width: Int
    public var height: Int
    public var format: String
    @ISO8601Encoded public var firstImported: Date
    public var paths: [Path]
    /// The latest classification's label and confidence; nil if never classified.
    public var label: String?
    public var confidence: Double?
    /// A person's latest correction, which outranks the model's label.
    public var correctedLabel: String?
    /// The three most likely labels of the latest classification.
    public var top: [Guess]
    public var history: [Entry]
    public var corrections: [Correction]
    /// The stored thumbnail's JPEG bytes (not in the JSON).
    public var thumbnail: [UInt8]?

    enum CodingKeys: String, CodingKey {
        case id, sha256, byteSize = "byte_size", width, height, format, firstImported = "first_imported"
        case paths, label, confidence, correctedLabel = "corrected_label", top, history, corrections
    }

    /// Reads it all for the image `reference` names.
    public init(_ reference: ImageReference, in catalogue: Catalogue) throws {
        let image = try reference.resolve(in: catalogue)
        self = try catalogue.read { try ImageDetails(image, in: catalogue) }
    }

    private init(_ image: ImageRecord, in catalogue: Catalogue) throws {
        let models = try ModelReference.names(in: catalogue)
        id = image.id.rawValue
        sha256 = image.sha256.hex
        byteSize = image.byteSize
        width = image.width
        height = image.height
        format = image.format
        firstImported = image.firstImported
        paths = try catalogue.paths(of: image.id).map { Path(path: $0.path, lastSeen: $0.lastSeen) }
        let entries = try catalogue.history(of: image.id)
        var previous: Int?
        history = entries.map { entry in
            let record = entry.classification
            defer { previous = record.label }
            return Entry(classification: record.id.rawValue, run: record.run.rawValue, command: entry.command,
                         model: models[record.model] ?? "\(entry.modelName)@\(entry.modelVersion)",
                         recipe: "\(record.recipe.name)@\(record.recipe.version)",
                         label: ClothingClassifier.labels[record.label], confidence: record.confidence,
                         classifiedAt: record.classifiedAt, labelChanged: previous.map { $0 != record.label } ?? false)
        }
        if let latest = entries.last?.classification {
            label = ClothingClassifier.labels[latest.label]
            confidence = latest.confidence
            top = Classification(logits: latest.logits).top(3).map { Guess(label: $0.label, probability: Double($0.probability)) }
        } else {
            top = []
        }
        corrections = try catalogue.corrections(of: image.id).map {
            Correction(label: ClothingClassifier.labels[$0.label], correctedAt: $0.correctedAt)
        }
        correctedLabel = corrections.last?.label
        thumbnail = try catalogue.thumbnail(of: image.id)
    }

    /// The thumbnail drawn with half blocks, `columns` characters wide at most.
    public func preview(columns: Int, style: TerminalStyle) -> String? {
        guard let thumbnail, let bitmap = try? ImageDecoder().decode(thumbnail).bitmap else { return nil }
        return TerminalPreview.image(bitmap, columns: columns, style: style)
    }
}
