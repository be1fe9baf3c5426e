internal import Catalogue
import Foundation

/// `wardrobe backup FILE`: a verified copy of the catalogue, taken through SQLite's online
/// backup API while other work may be writing (see `Catalogue.backup(to:)`). Restoring is
/// using the copy: `--db FILE`, or moving it over the catalogue while nothing runs.
public struct CatalogueBackup: Sendable, Encodable {
    public var catalogue: String
    public var backup: String
    public var bytes: Int
    /// The integrity check of the copy: "ok" (anything else is refused before this exists).
    public var integrity: String
    public var images: Int
    public var paths: Int
    public var classifications: Int
    public var runs: Int
    /// Every table's row count, equal in the copy and in the snapshot it was taken from.
    public var tables: [String: Int]
    public var seconds: Double

    /// Ctrl-C, SIGTERM or SIGHUP stopped a backup (see `init(of:to:at:)`).
    public struct Interrupted: Error, CustomStringConvertible {
        /// What became of the copy, in words.
        public var description: String
    }

    /// `path` is the copy's name, or an existing folder to put it in (see `name(for:catalogue:at:)`).
    /// Ctrl-C, SIGTERM or SIGHUP (`InterruptFlag`, installed by the caller) stops it with nothing
    /// left behind, and throws `Interrupted`: a stop is no failure of the backup, and is said as
    /// an export's is (status 130), where it was a failure like any other (status 1).
    init(of catalogue: any CatalogueStore, to path: String, at now: Date = Date()) throws {
        let name = Self.name(for: path, catalogue: catalogue.path, at: now)
        let report: BackupReport
        do {
            report = try InterruptFlag.stoppable {
                try catalogue.backup(to: name, shouldStop: { InterruptFlag.isRaised })
            }
        } catch where InterruptFlag.isRaised {
            throw Interrupted(description: "no backup was made at \(name); the part already copied was removed")
        }
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

    /// Where a backup to `path` goes: `path` itself, or, when `path` is a folder (or a link to
    /// one), a new file in it named after the catalogue and the time in UTC to the millisecond
    /// (`catalogue-20261201-232500.123.sqlite`), as `cp` puts a file into a folder; the time keeps
    /// one day's backups from refusing the next, and a name already taken (two backups in one
    /// millisecond, a clock set back) gets a number (`...232500.123-2.sqlite`).
    static func name(for path: String, catalogue: String, at now: Date) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return path }
        let stem = URL(fileURLWithPath: catalogue).deletingPathExtension().lastPathComponent
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss.SSS"
        let base = "\(stem)-\(formatter.string(from: now))"
        let folder = URL(fileURLWithPath: path)
        var name = folder.appendingPathComponent(base + ".sqlite").path
        var number = 1
        // A link that points nowhere takes a name too (`lstat`), as the backup refuses one.
        var status = stat()
        while lstat(name, &status) == 0 {
            number += 1
            name = folder.appendingPathComponent("\(base)-\(number).sqlite").path
        }
        return name
    }
}
