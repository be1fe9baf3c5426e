import Foundation

/// One act of a person on an image's colour: a palette name set, or the person's colour
/// taken back. Every act is kept (colour_corrections, migrations/0016_person_colour.sql); the
/// latest one of an image decides the colour a person gave it, which outranks the measured one.
public struct ColourCorrection: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The person set the colour.
        case colour
        /// The person took their colour back: the measured colour counts again.
        case clear
    }

    public let id: Int64
    public let image: ImageID
    public let kind: Kind
    /// The palette name set; nil for a clear.
    public let colour: String?
    /// The command through which the person acted (`colour`, `serve`...).
    public let command: String
    public let correctedAt: Date
}

extension ColourCorrection {
    /// An act's columns as every query of whole acts SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "id, image_id, kind, colour, command, corrected_at"

        private let id, image, kind, colour, command, correctedAt: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            image = statement.column("image_id")
            kind = statement.column("kind")
            colour = statement.column("colour")
            command = statement.column("command")
            correctedAt = statement.column("corrected_at")
        }

        func record(_ row: some CatalogueRow) throws -> ColourCorrection {
            ColourCorrection(id: row.int64(id), image: ImageID(row.int64(image)),
                             kind: ColourCorrection.Kind(rawValue: row.text(kind)) ?? .colour,
                             colour: row.optionalText(colour), command: row.text(command),
                             correctedAt: try row.date(correctedAt, row: "colour correction \(row.int64(id)) of image \(row.int64(image))"))
        }
    }

    /// The SQL of an image's colours now (`:image` where its id goes), read by `outcome`.
    static var coloursSQL: String {
        "SELECT colour, person_colour FROM images WHERE id = :image"
    }
}

/// An image's colours before and after a person's act on it.
public struct ColourOutcome: Sendable, Equatable {
    public let image: ImageID
    /// The measured colour; nil when the image was never measured.
    public let measured: String?
    /// The person's colour before and after (nil: none set).
    public let personBefore: String?
    public let personAfter: String?

    /// The colour queries use: the person's, else the measured.
    public var effectiveBefore: String? { personBefore ?? measured }
    public var effectiveAfter: String? { personAfter ?? measured }

    /// From a row of `ColourCorrection.coloursSQL`, and the colour the act sets (nil: a clear).
    init(_ image: ImageID, _ row: some CatalogueRow, after: String?) {
        self.image = image
        measured = row.optionalText("colour")
        personBefore = row.optionalText("person_colour")
        personAfter = after
    }
}
