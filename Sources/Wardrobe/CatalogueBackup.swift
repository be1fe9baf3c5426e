import Catalogue

/// `wardrobe backup FILE`: a verified copy of the catalogue, taken through SQLite's online
/// backup API while other work may be writing (see `Catalogue.backup(to:)`). Restoring is
/// using the copy: `--db FILE`, or moving it over the catalogue while nothing runs.
public struct CatalogueBackup: Sendable, Encodable {
    public var catalogue: String
    public var backup: String
    public var bytes: Int
    /// `PRAGMA integrity_check` of the copy: "ok" (anything else is refused before this exists).
    public var integrity: String
    public var images: Int
    public var paths: Int
    public var classifications: Int
    public var runs: Int
    /// Every table's row count, equal in the copy and in the snapshot it was taken from.
    public var tables: [String: Int]
    public var seconds: Double

    public init(of catalogue: Catalogue, to path: String) throws {
        let report = try catalogue.backup(to: path)
        self.catalogue = catalogue.path
        backup = report.path
        bytes = report.bytes
        integrity = report.integrity
        tables = report.rowCounts
        images = report.rowCounts["images"] ?? 0
        paths = report.rowCounts["image_paths"] ?? 0
        classifications = report.rowCounts["classifications"] ?? 0
        runs = report.rowCounts["runs"] ?? 0
        seconds = report.seconds
    }
}
