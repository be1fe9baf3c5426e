import Foundation

/// A file that could not be imported, and why.
public struct ImportFailure: Sendable, Equatable {
    public let id: Int64
    public let path: String
    public let reason: String
    public let run: RunID?
    public let failedAt: Date
}

extension ImportFailure {
    /// A failed attempt's columns as every query of whole attempts SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "id, path, reason, run_id, failed_at"

        private let id, path, reason, run, failedAt: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            path = statement.column("path")
            reason = statement.column("reason")
            run = statement.column("run_id")
            failedAt = statement.column("failed_at")
        }

        func record(_ row: some CatalogueRow) throws -> ImportFailure {
            ImportFailure(id: row.int64(id), path: row.text(path), reason: row.text(reason),
                          run: row.isNull(run) ? nil : RunID(row.int64(run)),
                          failedAt: try row.date(failedAt, row: "import failure \(row.int64(id))"))
        }
    }
}

/// A path whose latest import attempt failed, one per path of a machine however often it
/// was tried. Size and time (when the file could be examined) let an
/// unchanged file be passed over without reading or reporting it again.
public struct FailingFile: Sendable, Equatable {
    /// The machine the file failed on (`Machine`): its path means nothing on another.
    public let machine: String
    public let path: String
    public let reason: String
    public let size: Int64?
    public let modificationTimeNanoseconds: Int64?
    public let attempts: Int
    public let firstFailed: Date
    public let lastFailed: Date

    /// True when `file` has the size and time of the latest failed attempt.
    public func isUnchanged(_ file: SeenFile) -> Bool {
        file.size == size && file.modificationTimeNanoseconds == modificationTimeNanoseconds
    }
}

extension FailingFile {
    /// A failing path's columns as every query of whole failing paths SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "machine, path, reason, size, mtime_ns, attempts, first_failed, last_failed"

        private let machine, path, reason, size, modificationTime, attempts, firstFailed, lastFailed: Int32

        init(_ statement: some CatalogueRow) {
            machine = statement.column("machine")
            path = statement.column("path")
            reason = statement.column("reason")
            size = statement.column("size")
            modificationTime = statement.column("mtime_ns")
            attempts = statement.column("attempts")
            firstFailed = statement.column("first_failed")
            lastFailed = statement.column("last_failed")
        }

        func record(_ row: some CatalogueRow) throws -> FailingFile {
            FailingFile(machine: row.text(machine), path: row.text(path), reason: row.text(reason),
                        size: row.isNull(size) ? nil : row.int64(size),
                        modificationTimeNanoseconds: row.isNull(modificationTime) ? nil : row.int64(modificationTime),
                        attempts: row.int(attempts), firstFailed: try row.date(firstFailed, row: "a failing file"),
                        lastFailed: try row.date(lastFailed, row: "a failing file"))
        }
    }
}
