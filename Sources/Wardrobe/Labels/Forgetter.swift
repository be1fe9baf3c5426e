internal import Catalogue

/// `wardrobe forget`: removes images for good, the one operation that
/// deletes history. Every reference is resolved first; then all are removed
/// in one transaction, freed space is overwritten and the write-ahead log
/// emptied, so the thumbnails' bytes stay in neither file. Backups keep
/// what they hold.
public enum Forgetter {
    public struct Report: Sendable, Encodable {
        public var images: Int
        public var paths: Int
        public var classifications: Int
        /// A person's label acts removed.
        public var corrections: Int
        /// A person's colour acts removed (`wardrobe colour`), apart from the labels.
        public var colourCorrections: Int
        /// False when another process reading the catalogue kept the log
        /// from being emptied: the bytes leave the `-wal` once it is done.
        public var logEmptied: Bool
        /// What a server keeps of the removed rows until its own cleaning, and how to
        /// hasten it (PostgreSQL: VACUUM); nil for an SQLite file, which overwrites them.
        public var serverNote: String?

        enum CodingKeys: String, CodingKey {
            case images, paths, classifications, corrections, colourCorrections = "colour_corrections"
            case logEmptied = "log_emptied", serverNote = "server_note"
        }
    }

    /// The images the references name, resolved (to show before asking).
    static func resolve(_ references: [ImageReference], in catalogue: any CatalogueStore) throws -> [ImageSummary] {
        var seen = Set<ImageID>()
        return try references.map { try $0.resolve(in: catalogue) }.filter { seen.insert($0.id).inserted }.map {
            ImageSummary(id: $0.id.rawValue, sha256: $0.sha256.hex, path: try catalogue.paths(of: $0.id).first?.path)
        }
    }

    static func forget(_ images: [ImageSummary], in catalogue: any CatalogueStore) throws -> Report {
        let report = try catalogue.forget(images.map { ImageID($0.id) })
        return Report(images: report.images, paths: report.paths, classifications: report.classifications,
                      corrections: report.corrections, colourCorrections: report.colourCorrections,
                      logEmptied: report.logEmptied, serverNote: report.serverNote)
    }

    /// An image as a person recognises it before it goes.
    public struct ImageSummary: Sendable, Encodable {
        public var id: Int64
        public var sha256: String
        public var path: String?
    }
}
