import Files
import Foundation

/// A stored image (without its thumbnail bytes: see `Catalogue.thumbnail(of:)`).
public struct ImageRecord: Sendable, Equatable {
    public let id: ImageID
    public let sha256: SHA256Digest
    public let byteSize: Int
    public let width: Int
    public let height: Int
    public let format: String
    public let firstImported: Date
    /// When the photo was taken, as its file said; nil when it did not (or was never read for it).
    public var taken: TakenTime? = nil
    /// The garment's main colours; nil when the image was never measured.
    public var colours: StoredColours? = nil
    /// The colour a person gave the garment (a palette name), which outranks the measured one.
    public var personColour: String? = nil
}

extension ImageRecord {
    /// An image's columns as every query of whole images SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "id, sha256, byte_size, width, height, format, first_imported, taken_at, taken_offset, colour, colours, "
            + "colour_on_garment, person_colour"

        private let id, sha256, byteSize, width, height, format, firstImported, takenAt, takenOffset: Int32
        private let colour, colours, colourOnGarment, personColour: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            sha256 = statement.column("sha256")
            byteSize = statement.column("byte_size")
            width = statement.column("width")
            height = statement.column("height")
            format = statement.column("format")
            firstImported = statement.column("first_imported")
            takenAt = statement.column("taken_at")
            takenOffset = statement.column("taken_offset")
            colour = statement.column("colour")
            colours = statement.column("colours")
            colourOnGarment = statement.column("colour_on_garment")
            personColour = statement.column("person_colour")
        }

        func record(_ row: some CatalogueRow) throws -> ImageRecord {
            ImageRecord(id: ImageID(row.int64(id)), sha256: try SHA256Digest(bytes: row.blob(sha256)),
                        byteSize: row.int(byteSize), width: row.int(width), height: row.int(height),
                        format: row.text(format), firstImported: try row.date(firstImported, row: "image \(row.int64(id))"),
                        taken: try row.takenTime(takenAt, takenOffset, row: "image \(row.int64(id))"),
                        colours: try row.storedColours(colour, colours, colourOnGarment, row: "image \(row.int64(id))"),
                        personColour: row.optionalText(personColour))
        }
    }
}

/// A path where an image was seen, with the file's size and time then, and
/// whether the file was still there at the last look.
public struct KnownPath: Sendable, Equatable {
    public let path: String
    public let image: ImageID
    public let size: Int64
    public let modificationTimeNanoseconds: Int64
    /// The last time the file was seen (imported, or found by `prune`).
    public let lastSeen: Date
    /// True when the file was gone at the last look.
    public let isMissing: Bool
    /// When the last look other than an import's was (nil: none yet).
    public let checkedAt: Date?
    /// The machine the file was seen on (`Machine`).
    public var machine: String = ""

    /// True when `file` has the size and time recorded here: it need not be hashed again.
    public func isUnchanged(_ file: SeenFile) -> Bool {
        file.size == size && file.modificationTimeNanoseconds == modificationTimeNanoseconds
    }
}

extension KnownPath {
    /// A path's columns as every query of whole paths SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "path, image_id, size, mtime_ns, last_seen, missing, checked_at, path_bytes, machine"

        private let path, image, size, modificationTime, lastSeen, missing, checkedAt, pathBytes, machine: Int32

        init(_ statement: some CatalogueRow) {
            path = statement.column("path")
            image = statement.column("image_id")
            size = statement.column("size")
            modificationTime = statement.column("mtime_ns")
            lastSeen = statement.column("last_seen")
            missing = statement.column("missing")
            checkedAt = statement.column("checked_at")
            pathBytes = statement.column("path_bytes")
            machine = statement.column("machine")
        }

        func record(_ row: some CatalogueRow) throws -> KnownPath {
            let name = { "a path of image \(row.int64(image))" }
            // A name that is not UTF-8 comes back as its bytes, so it opens the same file.
            return KnownPath(path: row.isNull(pathBytes) ? row.text(path) : PathName.decode(row.blob(pathBytes)),
                             image: ImageID(row.int64(image)), size: row.int64(size),
                             modificationTimeNanoseconds: row.int64(modificationTime),
                             lastSeen: try row.date(lastSeen, row: name()), isMissing: row.int(missing) != 0,
                             checkedAt: row.isNull(checkedAt) ? nil : try row.date(checkedAt, row: name()),
                             machine: row.text(machine))
        }
    }
}
