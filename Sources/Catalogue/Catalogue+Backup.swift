import CSQLite
import Files
import Foundation

/// What a verified backup holds: every table's row count (equal in the copy and in the
/// snapshot it was taken from), its size, and how long it took.
public struct BackupReport: Sendable, Equatable, Encodable {
    public var path: String
    /// Table name to row count, for every table of the schema.
    public var rowCounts: [String: Int]
    public var bytes: Int
    public var integrity: String
    public var seconds: Double
}

extension Catalogue {
    /// Writes a consistent copy of the catalogue to `path` through SQLite's online backup
    /// API, safe while an import or a server writes: the copy is one snapshot, read inside one
    /// read transaction, which in WAL mode neither waits for writers nor holds them up.
    ///
    /// The copy goes to a temporary file beside `path` (`UnfinishedFile`); it is checked (`integrity_check`, its
    /// schema version, every table's row count against the snapshot's) and only then renamed
    /// to `path`, so a half-written or failed backup never carries the name. An existing
    /// `path` is refused: anything there, a symbolic link too, even one that points nowhere,
    /// and the name is given by `link`, which fails if something took it meanwhile. A `path`
    /// whose folder does not exist is refused too.
    ///
    /// `shouldStop` is asked between steps of the copy (`pagesPerStep` pages each) and,
    /// through SQLite's progress handler, while the copy is checked; once it says yes the
    /// backup ends as not made and the part already copied is removed, so Ctrl-C on a
    /// large catalogue leaves no temporary file behind.
    public func backup(to path: String, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> BackupReport {
        let started = Date()
        let target = PathName.absolute(path)
        var existing = stat()
        if lstat(target, &existing) == 0 { throw Catalogue.backupNameTaken(path) }
        if let database = Database.companionOwner(of: target) {
            throw CatalogueError.backupFailed(path: path, reason: "SQLite gives that name to a side file of the database "
                                              + "\(database), which would take the backup for it, or delete it as one")
        }
        // A missing folder is refused, not made, as `export --output` refuses one.
        if let problem = ParentFolder.problem(for: path) { throw CatalogueError.backupFailed(path: path, reason: problem) }
        // Before the copy is begun beside it, where its failure would name the temporary file.
        let folder = ParentFolder.of(target)
        if access(folder, W_OK) != 0 {
            throw CatalogueError.backupFailed(path: path, reason: ParentFolder.refusal(beside: target, code: errno))
        }
        // Hidden and named as unfinished, so a copy a killed backup leaves is never taken for
        // a backup; such copies of processes now gone are removed here.
        UnfinishedFile.removeStale(beside: target)
        let temporary = UnfinishedFile.name(beside: target)
        // Known to the signal handler before SQLite makes them, so a signal that ends the
        // process (a second Ctrl-C, a closed terminal) removes them too.
        let partials = Catalogue.fileSuffixes.map { PartialFiles.register(temporary + $0) }
        defer {
            for suffix in Catalogue.fileSuffixes { try? FileManager.default.removeItem(atPath: temporary + suffix) }
            partials.forEach(PartialFiles.unregister)
        }
        // Made here, empty, before SQLite opens it: SQLite says only 'unable to open database
        // file' of a folder that takes no new file (/proc/self), where the system says why.
        let made = PathName.withSystemName(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666) }
        guard made >= 0 else { throw CatalogueError.backupFailed(path: path, reason: ParentFolder.refusal(beside: target, code: errno)) }
        close(made)
        let copied: [String: Int]
        let interrupted = CatalogueError.backupFailed(path: path, reason: "interrupted; the part already copied was removed")
        do {
            let copy: Database
            do {
                copy = try Database(path: temporary, mode: .create)
            } catch CatalogueError.sqlite(let failure) {
                // Said of the backup: the temporary name means nothing to the person.
                throw CatalogueError.backupFailed(path: path, reason: "cannot make a file in the folder \(folder): \(failure.message)")
            }
            let snapshot: [String: Int] = try database.transaction(.deferred) {
                let counts = try rowCounts(in: database)   // starts the read snapshot the backup copies
                guard let backup = sqlite3_backup_init(copy.handle, "main", database.handle, "main") else {
                    throw copy.error(code: sqlite3_errcode(copy.handle), sql: "sqlite3_backup_init")
                }
                // Every page, in this one snapshot: the read transaction stays open between
                // the steps, so writers elsewhere neither change what is copied nor restart it.
                var stepped = SQLITE_OK
                var stopped = false
                while stepped == SQLITE_OK {
                    if shouldStop() { stopped = true; break }
                    stepped = sqlite3_backup_step(backup, Self.pagesPerStep)
                }
                let finished = sqlite3_backup_finish(backup)
                if stopped { throw interrupted }
                guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
                    throw copy.error(code: stepped == SQLITE_DONE ? finished : stepped, sql: "sqlite3_backup_step")
                }
                return counts
            }
            let stopCheck = StopCheck(shouldStop, on: copy)
            defer { stopCheck.remove() }
            let integrity = try copy.rows("PRAGMA integrity_check") { $0.text("integrity_check") }
            guard integrity == ["ok"] else {
                // A page-for-page copy that fails the check was copied from a damaged catalogue:
                // said of the catalogue, as every other command says it, with the way to recover.
                throw CatalogueError.damaged(path: self.path, detail: "a copy of it fails integrity_check: "
                                             + integrity.prefix(3).joined(separator: "; ") + "; no backup was made")
            }
            copied = try rowCounts(in: copy)
            guard copied == snapshot else {
                throw CatalogueError.backupFailed(path: path, reason: "the copy's row counts differ from the catalogue's")
            }
            guard try copy.scalarInt("PRAGMA user_version") == database.scalarInt("PRAGMA user_version") else {
                throw CatalogueError.backupFailed(path: path, reason: "the copy's schema version differs from the catalogue's")
            }
            // One file: the copy's WAL folded in and closed, so the backup can be moved or mailed alone.
            try copy.executeScript("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        } catch CatalogueError.diskFull(let full) where full == temporary {
            // The copy's own file, named by SQLite, is gone by now: say it of the backup.
            throw CatalogueError.backupFailed(path: path, reason: "the disk is full; the part already copied was removed")
        } catch where shouldStop() {
            // SQLite's "interrupted" from the progress handler, or the stop itself.
            throw interrupted
        }
        try Catalogue.giveName(temporary, to: target, path: path)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
        return BackupReport(path: target, rowCounts: copied, bytes: bytes, integrity: "ok",
                            seconds: Date().timeIntervalSince(started))
    }

    /// Pages copied between two looks at `shouldStop`: 4 MB of 4 KB pages, some
    /// milliseconds of work.
    static let pagesPerStep: Int32 = 1024

    private static func backupNameTaken(_ path: String) -> CatalogueError {
        .backupFailed(path: path, reason: "the file exists; remove it or choose another name")
    }

    /// Names the finished copy `target` only if nothing has that name, in one step
    /// (`link` fails with EEXIST otherwise). A file system without hard links gets a
    /// second look and `rename`, which leaves only the moment between the two.
    private static func giveName(_ temporary: String, to target: String, path: String) throws {
        if link(temporary, target) == 0 { return }
        let code = errno
        if code == EEXIST { throw backupNameTaken(path) }
        guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EMLINK || code == ENOSYS else {
            throw CatalogueError.backupFailed(path: path, reason: String(cString: strerror(code)))
        }
        var existing = stat()
        if lstat(target, &existing) == 0 { throw backupNameTaken(path) }
        guard rename(temporary, target) == 0 else {
            throw CatalogueError.backupFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func rowCounts(in database: Database) throws -> [String: Int] {
        let tables = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            $0.text("name")
        }
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = Int(try database.scalarInt("SELECT count(*) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"") ?? 0)
        }
        return counts
    }
}

/// `shouldStop` as SQLite's progress handler of one connection: asked every few thousand
/// virtual-machine steps, a yes makes the running statement fail as interrupted.
private final class StopCheck {
    private let shouldStop: @Sendable () -> Bool
    private let database: Database

    init(_ shouldStop: @escaping @Sendable () -> Bool, on database: Database) {
        self.shouldStop = shouldStop
        self.database = database
        sqlite3_progress_handler(database.handle, 4096, { context in
            Unmanaged<StopCheck>.fromOpaque(context!).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Must be called before the check is released: SQLite holds only a raw pointer to it.
    func remove() { sqlite3_progress_handler(database.handle, 0, nil, nil) }
}
