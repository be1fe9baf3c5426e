import Files
import Foundation

extension Catalogue {
    /// Records a file that could not be imported: one more entry in the log
    /// of attempts, and the path's row among the failing files (its reason,
    /// and the file's size and time when known).
    public func recordFailure(path: String, reason: String, run: RunID? = nil, file: SeenFile? = nil,
                              at date: Date = Date()) throws {
        try database.transaction {
            try storeFailure(path: path, reason: reason, run: run, file: file, now: date.catalogueMilliseconds)
        }
    }

    /// `recordFailure` inside the caller's transaction.
    func storeFailure(path: String, reason: String, run: RunID?, file: SeenFile?, now: Int64) throws {
        // A name that is not UTF-8: its display form, and its exact bytes beside it.
        let display = PathName.display(path), exact = PathName.exactBytes(of: path)
        try database.execute("""
            INSERT INTO import_failures (path, reason, run_id, failed_at, size, mtime_ns, path_bytes)
            VALUES (:path, :reason, :run, :now, :size, :mtime_ns, :path_bytes)
            """, [":path": display, ":reason": reason, ":run": run, ":now": now, ":size": file?.size,
                  ":mtime_ns": file?.modificationTimeNanoseconds, ":path_bytes": exact])
        try database.execute("""
            INSERT INTO failing_files (machine, path, size, mtime_ns, reason, run_id, first_failed, last_failed, attempts,
                                       path_bytes)
            VALUES (:machine, :path, :size, :mtime_ns, :reason, :run, :now, :now, 1, :path_bytes)
            ON CONFLICT (machine, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                reason = excluded.reason, run_id = excluded.run_id, last_failed = excluded.last_failed,
                attempts = attempts + 1
            WHERE path_bytes IS excluded.path_bytes
            """, [":machine": machine, ":path": display, ":size": file?.size,
                  ":mtime_ns": file?.modificationTimeNanoseconds, ":reason": reason, ":run": run, ":now": now,
                  ":path_bytes": exact])
    }

    /// These paths of this machine are failing no more (their log of attempts stays): files
    /// gone since they failed, and files an import passes over without reading them.
    public func stopFailing(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try database.transaction {
            for path in paths {
                try database.execute("DELETE FROM failing_files WHERE machine = :machine AND path = :path",
                                     [":machine": machine, ":path": PathName.display(path)])
            }
        }
    }

    /// Every attempt that failed, newest first, optionally of one run only.
    public func failures(run: RunID? = nil, limit: Int? = nil) throws -> [ImportFailure] {
        try database.records("""
            SELECT \(ImportFailure.Columns.list) FROM import_failures
            WHERE :run IS NULL OR run_id = :run ORDER BY id DESC LIMIT :limit
            """, [":run": run, ":limit": limit ?? -1], as: ImportFailure.Columns.self)
    }

    /// The failing file at this path of this machine, if its latest attempt failed.
    public func failingFile(_ path: String) throws -> FailingFile? {
        try failingFiles(where: "machine = :machine AND path = :path AND path_bytes IS :path_bytes",
                         [":machine": machine, ":path": PathName.display(path),
                          ":path_bytes": PathName.exactBytes(of: path)]).first
    }

    /// Every failing path of every machine, or this machine's under `folder`, in path order.
    public func failingFiles(under folder: String? = nil) throws -> [FailingFile] {
        guard let folder else { return try failingFiles(where: "1", [:]) }
        let (low, high) = Catalogue.range(under: PathName.display(folder))
        return try failingFiles(where: "machine = :machine AND path > :low AND path < :high",
                                [":machine": machine, ":low": low, ":high": high])
    }

    private func failingFiles(where condition: String, _ arguments: SQLArguments) throws -> [FailingFile] {
        try database.records("SELECT \(FailingFile.Columns.list) FROM failing_files WHERE \(condition) ORDER BY path, machine",
                             arguments, as: FailingFile.Columns.self)
    }
}
