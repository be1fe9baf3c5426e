import Foundation

/// One act of a person on an image's label. Every act is kept; the latest
/// one of an image decides its person label (a `clear` takes it back).
public struct Correction: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The person set the label (one of the ten, or `none`).
        case label
        /// The person said the model's label at the time is right.
        case confirm
        /// The person took their label back: the model's label counts again.
        case clear
    }

    public let id: Int64
    public let image: ImageID
    public let kind: Kind
    /// 0...9, or `Catalogue.noneLabel`; nil for a clear.
    public let label: Int?
    /// The command through which the person acted (`label`, `serve`...).
    public let command: String
    public let correctedAt: Date
}

extension Correction {
    /// An act's columns as every query of whole acts SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "id, image_id, kind, label, command, corrected_at"

        private let id, image, kind, label, command, correctedAt: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            image = statement.column("image_id")
            kind = statement.column("kind")
            label = statement.column("label")
            command = statement.column("command")
            correctedAt = statement.column("corrected_at")
        }

        func record(_ row: some CatalogueRow) throws -> Correction {
            let name = { "correction \(row.int64(id)) of image \(row.int64(image))" }
            return Correction(id: row.int64(id), image: ImageID(row.int64(image)),
                              kind: Correction.Kind(rawValue: row.text(kind)) ?? .label,
                              label: row.isNull(label) ? nil : try row.label(label, upTo: Catalogue.noneLabel, row: name()),
                              command: row.text(command), correctedAt: try row.date(correctedAt, row: name()))
        }
    }
}

/// What a person asks of an image's label.
public enum CorrectionRequest: Sendable, Equatable {
    /// Set this label (0...9, or `Catalogue.noneLabel`).
    case label(Int)
    /// Record that the model's current label is right.
    case confirm
    /// Remove the person's label.
    case clear
}

extension CorrectionRequest {
    /// A label is one of the ten or `Catalogue.noneLabel`.
    func validate() throws {
        if case .label(let label) = self, !(0...Catalogue.noneLabel).contains(label) {
            throw CatalogueError.invalidArgument("label index \(label) is not in 0...\(Catalogue.noneLabel)")
        }
    }

    /// The act recorded for `image`, whose model label now is `model`: a confirmation
    /// records the model's label, and needs one.
    func act(on image: ImageID, modelLabel model: Int?) throws -> (kind: Correction.Kind, label: Int?) {
        switch self {
        case .label(let value): return (.label, value)
        case .clear: return (.clear, nil)
        case .confirm:
            guard let model else { throw CatalogueError.invalidArgument("image \(image) has no label from a model to confirm") }
            return (.confirm, model)
        }
    }
}

/// An image's labels before and after a person's act.
public struct CorrectionOutcome: Sendable, Equatable {
    public let image: ImageID
    /// The model's current label; nil if the image was never classified.
    public let modelLabel: Int?
    /// The person's label before and after (nil: none set).
    public let personBefore: Int?
    public let personAfter: Int?

    /// The label queries use: the person's, else the model's.
    public var effectiveBefore: Int? { personBefore ?? modelLabel }
    public var effectiveAfter: Int? { personAfter ?? modelLabel }
}

/// An image a person labelled or confirmed, with that label and the stored
/// thumbnail: one training example.
public struct LabelledImage: Sendable, Equatable {
    public let image: ImageID
    /// 0...9 (`none` is never an example).
    public let label: Int
    public let kind: Correction.Kind
    public let thumbnail: [UInt8]
    /// The image's content hash: what decides, as for a folder's photos,
    /// whether it is held out of training.
    public let sha256: SHA256Digest
}
