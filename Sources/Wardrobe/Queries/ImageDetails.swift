import Files
internal import Catalogue
import Foundation
import Imaging

/// `wardrobe show` and `wardrobe history`: everything the catalogue knows
/// about one image, gathered from one snapshot.
public struct ImageDetails: Sendable, Encodable {
    public struct Path: Sendable, Encodable {
        public var path: String
        @ISO8601Encoded public var lastSeen: Date
        /// True when the file was gone at the last look.
        public var missing: Bool
        enum CodingKeys: String, CodingKey { case path, lastSeen = "last_seen", missing }
    }

    /// One of the garment's main colours: its palette name, its share of the measured area
    /// and the mean CIELAB of the pixels it names.
    public struct Colour: Sendable, Encodable {
        public var name: String
        public var share: Double
        public var lab: [Double]

        init(_ share: StoredColours.Share) {
            name = share.name
            self.share = share.share
            lab = [share.lightness, share.a, share.b]
        }
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
        /// How that run ended: `finished`, `interrupted` (Ctrl-C, or its
        /// process died before closing it), `failed`, or `running`.
        public var runState: String
        public var model: String
        public var recipe: String
        public var label: String
        public var confidence: Double
        @ISO8601Encoded public var classifiedAt: Date
        /// True when the label differs from the entry before (never for the first).
        public var labelChanged: Bool

        enum CodingKeys: String, CodingKey {
            case classification, run, command, runState = "run_state", model, recipe, label, confidence
            case classifiedAt = "classified_at", labelChanged = "label_changed"
        }
    }

    /// One act of a person: a label set, a confirmation or a clear.
    public struct Correction: Sendable, Encodable {
        /// `label`, `confirm` or `clear`.
        public var kind: String
        /// The label set or confirmed; nil for a clear.
        public var label: String?
        public var command: String
        @ISO8601Encoded public var correctedAt: Date
        enum CodingKeys: String, CodingKey { case kind, label, command, correctedAt = "corrected_at" }
    }

    /// One act of a person on the garment's colour: a colour set, or the person's taken back.
    public struct ColourCorrection: Sendable, Encodable {
        /// `colour`, or `colour_clear` for a clear (a kind apart from a label's acts in one history).
        public var kind: String
        /// The palette name set; nil for a clear.
        public var colour: String?
        public var command: String
        @ISO8601Encoded public var correctedAt: Date
        enum CodingKeys: String, CodingKey { case kind, colour, command, correctedAt = "corrected_at" }
    }

    public var id: Int64
    public var sha256: String
    public var byteSize: Int
    public var width: Int
    public var height: Int
    public var format: String
    @ISO8601Encoded public var firstImported: Date
    /// When the photo was taken, by the camera's clock, with its offset when the file says
    /// (`2024-05-01T14:30:00+02:00`); nil when the file does not say.
    public var taken: String?
    /// The garment's colour as measured (a palette name); nil when it was never measured.
    public var measuredColour: String?
    /// The colour a person gave the garment, which outranks the measured one.
    public var personColour: String?
    /// Its main colours, largest share first.
    public var colours: [Colour]
    /// False when no garment was found and the whole thumbnail was measured.
    public var colourOnGarment: Bool?
    public var paths: [Path]
    /// The latest classification's label and confidence; nil if never classified.
    public var label: String?
    public var confidence: Double?
    /// A person's label now (one of the ten, or `none`), which outranks the model's.
    public var correctedLabel: String?
    /// The three most likely labels of the latest classification.
    public var top: [Guess]
    public var history: [Entry]
    public var corrections: [Correction]
    public var colourCorrections: [ColourCorrection]
    /// The stored thumbnail's JPEG bytes (not in the JSON).
    public var thumbnail: [UInt8]?

    enum CodingKeys: String, CodingKey {
        case id, sha256, byteSize = "byte_size", width, height, format, firstImported = "first_imported", taken = "taken_at"
        case colour, personColour = "person_colour", measuredColour = "measured_colour", colours
        case colourOnGarment = "colour_on_garment"
        case paths, label, confidence, correctedLabel = "corrected_label", effectiveLabel = "effective_label"
        case top, history, corrections, colourCorrections = "colour_corrections"
    }

    /// The colour queries use: a person's if any, else the measured one.
    public var colour: String? { personColour ?? measuredColour }

    /// The label queries use: a person's if any, else the model's.
    public var effectiveLabel: String? { correctedLabel ?? label }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(byteSize, forKey: .byteSize)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(format, forKey: .format)
        try container.encode(_firstImported, forKey: .firstImported)
        try container.encode(taken, forKey: .taken)
        try container.encode(colour, forKey: .colour)
        try container.encode(personColour, forKey: .personColour)
        try container.encode(measuredColour, forKey: .measuredColour)
        try container.encode(colours, forKey: .colours)
        try container.encode(colourOnGarment, forKey: .colourOnGarment)
        try container.encode(paths, forKey: .paths)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encodeIfPresent(confidence, forKey: .confidence)
        try container.encodeIfPresent(correctedLabel, forKey: .correctedLabel)
        try container.encodeIfPresent(effectiveLabel, forKey: .effectiveLabel)
        try container.encode(top, forKey: .top)
        try container.encode(history, forKey: .history)
        try container.encode(corrections, forKey: .corrections)
        try container.encode(colourCorrections, forKey: .colourCorrections)
    }

    /// Reads it all for the image `reference` names.
    init(_ reference: ImageReference, in catalogue: any CatalogueStore) throws {
        let image = try reference.resolve(in: catalogue)
        self = try catalogue.read { try ImageDetails(image, in: catalogue) }
    }

    private init(_ image: ImageRecord, in catalogue: any CatalogueStore) throws {
        let models = try ModelReference.names(in: catalogue)
        id = image.id.rawValue
        sha256 = image.sha256.hex
        byteSize = image.byteSize
        width = image.width
        height = image.height
        format = image.format
        firstImported = image.firstImported
        taken = image.taken.map { CaptureTime($0).text }
        measuredColour = image.colours?.main
        personColour = image.personColour
        colours = image.colours?.shares.map(Colour.init) ?? []
        colourOnGarment = image.colours?.onGarment
        paths = try catalogue.paths(of: image.id).map {
            Path(path: Machine.shown(PathName.display($0.path), on: $0.machine, from: catalogue.machine),
                 lastSeen: $0.lastSeen, missing: $0.isMissing)
        }
        let entries = try catalogue.history(of: image.id)
        var previous: Int?
        history = entries.map { entry in
            let record = entry.classification
            defer { previous = record.label }
            return Entry(classification: record.id.rawValue, run: record.run.rawValue, command: entry.command,
                         runState: entry.runState.rawValue, model: models[record.model] ?? "\(entry.modelName)@\(entry.modelVersion)",
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
            Correction(kind: $0.kind.rawValue, label: $0.label.map(LabelMatcher.name(of:)), command: $0.command,
                       correctedAt: $0.correctedAt)
        }
        correctedLabel = corrections.last?.label
        colourCorrections = try catalogue.colourCorrections(of: image.id).map {
            ColourCorrection(kind: $0.kind == .clear ? "colour_clear" : "colour", colour: $0.colour, command: $0.command,
                             correctedAt: $0.correctedAt)
        }
        thumbnail = try catalogue.thumbnail(of: image.id)
    }

    /// One step of the image's history: a classification or a person's act on its label or colour.
    public enum Event: Sendable {
        case classification(Entry)
        case correction(Correction)
        case colourCorrection(ColourCorrection)

        public var date: Date {
            switch self {
            case .classification(let entry): entry.classifiedAt
            case .correction(let correction): correction.correctedAt
            case .colourCorrection(let correction): correction.correctedAt
            }
        }
    }

    /// Classifications and a person's acts in one list, in the order they happened (a
    /// classification first when they share a millisecond, then labels, then colours).
    public var timeline: [Event] {
        // Each list keeps its own order (reversed, to take from the end); the next event is the
        // earliest of their heads, the first list's on a tie.
        var lists: [[Event]] = [history.map(Event.classification).reversed(), corrections.map(Event.correction).reversed(),
                                colourCorrections.map(Event.colourCorrection).reversed()]
        var events: [Event] = []
        while let next = lists.indices.filter({ !lists[$0].isEmpty })
            .min(by: { lists[$0].last!.date < lists[$1].last!.date }) {
            events.append(lists[next].removeLast())
        }
        return events
    }

    /// The thumbnail drawn with half blocks, `columns` characters wide at most.
    public func preview(columns: Int, style: TerminalStyle) -> String? {
        guard let thumbnail, let bitmap = try? ImageDecoder().decode(thumbnail).bitmap else { return nil }
        return TerminalPreview.image(bitmap, columns: columns, style: style)
    }
}
