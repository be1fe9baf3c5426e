import CSQLite
import Files
import Foundation
import Synchronization

/// One connection to an SQLite database. Not shared between threads: each
/// thread or process that needs the catalogue opens its own connection
/// (SQLite's WAL mode lets them read while one writes).
public final class Database {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read and write; create the file and its parent folders if missing.
        case create
        /// Read and write an existing file.
        case readWrite
        /// Read an existing file; every write fails.
        case readOnly
    }

    /// How long a connection waits for another process's lock before it fails with SQLITE_BUSY.
    public static let busyTimeoutSeconds: Int32 = 5

    /// The file as given, or `:memory:`.
    public let path: String
    let handle: OpaquePointer
    /// Prepared statements kept for SQL that runs many times (inserts in a batch), each
    /// with when it was last asked for.
    private var cache: [String: (statement: Statement, used: UInt64)] = [:]
    private var uses: UInt64 = 0
    /// How many statements `cache` keeps. SQL whose text depends on a request (an `IN` list
    /// as long as the colours a gallery URL names) made a new statement per length, all
    /// kept for the connection's life: `serve` grew by hundreds of megabytes under such
    /// URLs. Past this many, the one used longest ago is dropped (finalised once no caller
    /// holds it).
    public static let cachedStatementLimit = 128

    public init(path: String, mode: Mode = .create) throws {
        self.path = path
        let inMemory = path == ":memory:" || path.isEmpty
        if !inMemory {
            try Database.checkFile(path, mode: mode)
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        // A catalogue on read-only media (a mounted backup, a read-only share):
        // WAL needs a -shm file it cannot create there, so with no -wal to read,
        // the file is opened as immutable, which needs neither.
        // A relative name is given as "./name": SQLite would read "file:x.db" as a URI and
        // open x.db (and a query in it, "?mode=ro", as options).
        var name = inMemory || path.hasPrefix("/") ? path : "./" + path
        if mode == .readOnly, !inMemory, Database.isOnReadOnlyMedia(path) {
            name = Database.immutableURI(path)
            flags |= SQLITE_OPEN_URI
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(name, &opened, flags, nil)
        guard let opened else {
            throw CatalogueError.sqlite(SQLiteFailure(
                code: code, extendedCode: code, message: String(cString: sqlite3_errstr(code)),
                sql: nil, path: path))
        }
        guard code == SQLITE_OK else {
            let failure = Database.failure(opened, code: code, sql: nil, path: path)
            let system = sqlite3_system_errno(opened)
            sqlite3_close_v2(opened)
            if code & 0xff == SQLITE_CANTOPEN, let shortage = RegularFile.shortage(system) {
                throw CatalogueError.outOfResources(path: path, reason: shortage)
            }
            if code & 0xff == SQLITE_CANTOPEN, mode == .readOnly || mode == .readWrite,
               !FileManager.default.fileExists(atPath: path) {
                throw CatalogueError.fileNotFound(path: path)
            }
            throw CatalogueError.sqlite(failure)
        }
        // Before anything is read: the first read opens any -wal beside the file.
        if !inMemory, Database.hasForeignWriteAheadLog(opened, path: path) {
            sqlite3_close_v2(opened)
            throw CatalogueError.foreignWriteAheadLog(path: path)
        }
        handle = opened
        // SQLite falls back to read-only silently when the file cannot be written.
        if mode != .readOnly, sqlite3_db_readonly(handle, "main") == 1 {
            sqlite3_close_v2(handle)
            throw CatalogueError.readOnly(path: path)
        }
        sqlite3_busy_timeout(handle, Database.busyTimeoutSeconds * 1_000)
    }

    deinit {
        cache.removeAll()
        // The last connection to close folds the -wal into the file. Once damage is met,
        // "nothing more was written" must hold for that too: the file stays as it was found,
        // its log beside it, for `check` and for recovery.
        if Database.damageMet(at: path) != nil { csqlite_no_checkpoint_on_close(handle) }
        sqlite3_close_v2(handle)
    }

    /// Whether a -wal with frames (more than its 32-byte header) lies beside the catalogue.
    static func logHoldsFrames(_ path: String) -> Bool {
        var wal = stat()
        return stat((PathName.real(path) ?? path) + "-wal", &wal) == 0 && wal.st_size > 32
    }

    /// True when the catalogue's folder cannot be written and no WAL file waits
    /// to be read (SQLite reads a -wal with -shm on read-only media itself).
    static func isOnReadOnlyMedia(_ path: String) -> Bool {
        let folder = ParentFolder.of(path)
        return access(folder, W_OK) != 0 && access(path + "-wal", F_OK) != 0
    }

    /// `file:` URI with `immutable=1`, the path percent-encoded.
    static func immutableURI(_ path: String) -> String {
        let absolute = PathName.absolute(path)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?immutable=1"
    }

    /// Refuses what SQLite would report poorly: a missing file, a folder, an
    /// unwritable file, a file SQLite keeps beside it that is not a file; makes the parent
    /// folders of a new file.
    private static func checkFile(_ path: String, mode: Mode) throws {
        let files = FileManager.default
        // A folder, FIFO or dangling link named `-wal`, `-shm` or `-journal` made every command
        // fail with "unable to open database file" or "disk I/O error" while executing a PRAGMA.
        for suffix in ["-wal", "-shm", "-journal"] {
            var link = stat(), status = stat()
            guard lstat(path + suffix, &link) == 0 else { continue }
            if stat(path + suffix, &status) != 0 {
                // Another process may have removed the file between the two looks: SQLite makes
                // and deletes a -journal as a new catalogue is set up. Only a link that is still
                // there points to nothing.
                guard lstat(path + suffix, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { continue }
                throw CatalogueError.companionNotAFile(path: path + suffix, kind: "a symbolic link to nothing")
            }
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG else {
                throw CatalogueError.companionNotAFile(path: path + suffix, kind: RegularFile.describe(kind))
            }
        }
        var status = stat()
        if stat(path, &status) == 0 {
            // The kernel's files (/proc/self/mem) are regular files of size 0 that SQLite fails
            // to read with "disk I/O error".
            if let real = PathName.resolvedName(path), ["/proc/", "/sys/"].contains(where: { real.hasPrefix($0) }) {
                throw CatalogueError.notAFile(path: path, kind: "a file the kernel makes (/proc, /sys)")
            }
            // SQLite would wait forever to open a FIFO, and take a device for an empty database.
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG else { throw CatalogueError.notAFile(path: path, kind: RegularFile.describe(kind)) }
            if mode != .readOnly, !files.isWritableFile(atPath: path) || isOnReadOnlyMedia(path) {
                throw CatalogueError.readOnly(path: path)
            }
            if mode != .readOnly, status.st_nlink > 1 {
                throw CatalogueError.severalNames(path: path, names: Int(status.st_nlink))
            }
            if mode != .readOnly { try refuseCompanionName(path) }
            try refuseLogIndexDeletedUnderAnother(path)
            return
        }
        guard mode == .create else { throw CatalogueError.fileNotFound(path: path) }
        try refuseCompanionName(path)
        try refuseLeftoverSideFile(path)
        let parent = ParentFolder.of(path)
        do {
            try files.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            // Said with why: most often a file where one of the folders should be.
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            let why = ParentFolder.blocker(of: parent) ?? code.map { RegularFile.text(of: Int32($0)) }
            throw CatalogueError.cannotCreate(path: path, reason: "cannot make folder \(parent)" + (why.map { ": \($0)" } ?? ""))
        }
        // Said as a catalogue not made, not as one that "cannot be written" but can be read:
        // there is nothing there to read.
        if access(parent, W_OK) != 0 {
            throw CatalogueError.cannotCreate(path: path, reason: "cannot write in the folder \(parent) "
                                              + "(\(RegularFile.text(of: errno)))")
        }
    }

    /// Refuses a catalogue in WAL mode whose -shm is gone while another process holds it open
    /// (`CatalogueError.logIndexDeleted`). Every connection in WAL mode keeps the -shm there,
    /// so it was deleted under that process; a connection made here rebuilt an index of its
    /// own, and a label it said was stored was lost when the other process wrote over it. The
    /// -shm is also missing for a moment as the first connection opens it and as the last
    /// closes, so the state must last a quarter of a second to be refused.
    private static func refuseLogIndexDeletedUnderAnother(_ path: String) throws {
        var status = stat()
        func holder() -> Int32? {
            guard access(path + "-shm", F_OK) != 0, stat(path, &status) == 0 else { return nil }
            let holders = LockHolders.of(status)
            // A lock of this process's own: a connection of it has the file, and opening a
            // descriptor to read the header would drop that lock as it closed.
            guard !holders.contains(getpid()), let other = holders.first, isInWALMode(path) else { return nil }
            return other
        }
        for _ in 0..<5 {
            guard holder() != nil else { return }
            usleep(50_000)
        }
        if let other = holder() { throw CatalogueError.logIndexDeleted(path: path, holder: other) }
    }

    /// Whether the header of the file at `path` says WAL mode (format bytes 18 and 19 are 2).
    private static func isInWALMode(_ path: String) -> Bool {
        // Read as a regular file or not at all: a FIFO put in the catalogue's place meanwhile
        // would keep a plain open waiting for a writer forever.
        guard let header = try? RegularFile.read(path, maxSize: Int.max, first: 20), header.count == 20 else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// Refuses a name SQLite gives a side file of the database beside it (`x.sqlite-journal`
    /// beside `x.sqlite`): `copy` into it made a catalogue that the next command to write
    /// `x.sqlite` deleted as its journal, and every read of `x.sqlite` failed meanwhile.
    private static func refuseCompanionName(_ path: String) throws {
        if let database = companionOwner(of: path) { throw CatalogueError.companionName(path: path, database: database) }
    }

    /// The database whose side file SQLite would name `path`, whether or not it is there yet:
    /// a backup named `new.sqlite-wal` was deleted as a log by the first catalogue made as
    /// `new.sqlite`.
    static func companionOwner(of path: String) -> String? {
        for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if !database.isEmpty, !database.hasSuffix("/") { return database }
        }
        return nil
    }

    /// A side file with something in it beside a catalogue not there yet: SQLite makes the
    /// catalogue and deletes the file as a log or journal of nothing, whatever it held (a
    /// backup once given that name).
    private static func refuseLeftoverSideFile(_ path: String) throws {
        for suffix in ["-wal", "-journal"] {
            var status = stat()
            guard lstat(path + suffix, &status) == 0, status.st_size > 0 else { continue }
            // Another process making the catalogue at once makes its file before its side
            // files: the catalogue there now is that one's.
            if stat(path, &status) == 0 { return }
            throw CatalogueError.leftoverSideFile(path: path, file: path + suffix)
        }
    }

    /// Whether a `-wal` holding pages lies beside a database whose header says it is not in
    /// WAL mode (file format bytes 18 and 19 are 1). A catalogue in WAL mode says 2 before its
    /// first WAL frame is written and keeps saying it; a backup is written in rollback mode
    /// (1). So such a -wal is another file's: left when a backup was moved over a catalogue
    /// that a killed command had been writing. SQLite opens a -wal wherever it finds one, and
    /// would have written that log's pages into the backup.
    ///
    /// The header is read through the connection's own file handle, never by opening the
    /// file again: closing another descriptor of the file drops every POSIX lock the process
    /// holds on it, those of its other connections too, and their next reads met a damaged
    /// catalogue. The -wal is looked for where SQLite keeps it: beside the file a symbolic
    /// link leads to.
    static func hasForeignWriteAheadLog(_ handle: OpaquePointer, path: String) -> Bool {
        var wal = stat()
        guard stat((PathName.real(path) ?? path) + "-wal", &wal) == 0, wal.st_size > 32,
              let (header, _) = Catalogue.fileHeader(handle), header.count >= 20,
              header.starts(with: Array("SQLite format 3".utf8) + [0]) else { return false }
        return header[18] == 1 && header[19] == 1
    }

    // MARK: - Running SQL

    /// Compiles one statement. The caller owns it; it finalises itself.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql, persistent: false)
    }

    /// A prepared statement kept for the connection's lifetime, reset and
    /// ready to bind. For SQL that runs once per row of a batch.
    public func cachedStatement(_ sql: String) throws -> Statement {
        uses += 1
        if let kept = cache[sql] {
            cache[sql]!.used = uses
            kept.statement.reset()
            return kept.statement
        }
        let statement = try Statement(database: self, sql: sql, persistent: true)
        if cache.count >= Self.cachedStatementLimit, let oldest = cache.min(by: { $0.value.used < $1.value.used }) {
            cache[oldest.key] = nil
        }
        cache[sql] = (statement, uses)
        return statement
    }

    /// How many prepared statements the connection keeps (`cachedStatementLimit` at most).
    public var cachedStatementCount: Int { cache.count }

    /// Runs one statement with its parameters' values, discarding any rows.
    public func execute(_ sql: String, _ arguments: SQLArguments = [:]) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a script of several statements (a migration), with no bound values.
    /// A failure names the one statement that failed.
    public func executeScript(_ script: String) throws {
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                let length = (tail ?? current) - current
                let sql = String(decoding: UnsafeRawBufferPointer(start: current, count: length), as: UTF8.self)
                guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
                cursor = tail
                guard let statement else { continue }  // only whitespace or a comment
                defer { sqlite3_finalize(statement) }
                var stepCode = sqlite3_step(statement)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statement) }
                guard stepCode == SQLITE_DONE else { throw error(code: stepCode, sql: sql) }
            }
        }
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalarInt(_ sql: String, _ arguments: SQLArguments = [:]) throws -> Int64? {
        let statement = try cachedStatement(sql)
        // Reset when done: a statement left on a row holds its read snapshot open.
        defer { statement.reset() }
        try statement.bind(arguments)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The rows of a query, each mapped while the statement sits on it.
    public func rows<T>(_ sql: String, _ arguments: SQLArguments = [:],
                        _ map: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var result: [T] = []
        while try statement.step() { result.append(try map(statement)) }
        return result
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows inserted, updated or deleted through this connection since it was opened (triggers' included).
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// True outside any explicit transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: - Errors

    /// The first damage any connection of this process met in each file. Once
    /// set, no connection starts another write transaction on that file: a
    /// command that met a damaged page stops there and writes nothing more.
    private static let damage = Mutex<[String: CatalogueError]>([:])

    /// The damage met in the file at `path`, by any connection of this process.
    public static func damageMet(at path: String) -> CatalogueError? { damage.withLock { $0[path] } }

    static func recordDamage(_ error: CatalogueError, at path: String) -> CatalogueError {
        damage.withLock { $0[path] = $0[path] ?? error }
        return error
    }

    func error(code: Int32, sql: String?) -> CatalogueError {
        Database.error(handle, code: code, sql: sql, path: path)
    }

    static func error(_ handle: OpaquePointer, code: Int32, sql: String?, path: String) -> CatalogueError {
        let failure = Database.failure(handle, code: code, sql: sql, path: path)
        if failure.code == SQLITE_CORRUPT {
            return recordDamage(.damaged(path: path, detail: failure.message), at: path)
        }
        if failure.code == SQLITE_NOTADB {
            // Said as damage to the header (or, before the file's first checkpoint, as no
            // database), a copy of the log moved over the -wal under an import sent people to
            // recover a catalogue `check` then found whole.
            if Catalogue.hasWholeHeader(handle), logHoldsFrames(path) {
                return recordDamage(.logPageUnreadable(path: path), at: path)
            }
            if Catalogue.isDamagedCatalogue(handle) {
                return recordDamage(.damaged(path: path, detail: "its SQLite header is damaged: \(failure.message)"), at: path)
            }
            return .notADatabase(path: path)
        }
        // SQLITE_IOERR_SHORT_READ, a macro Swift does not import: "disk I/O error (No such file
        // or directory)" while opening said nothing of the log deleted under another process.
        if failure.extendedCode == SQLITE_IOERR | (2 << 8) {
            return .logCutShort(path: path)
        }
        // SQLITE_READONLY_ROLLBACK, a macro Swift does not import.
        if failure.extendedCode == SQLITE_READONLY | (3 << 8) {
            return .journalToRollBack(path: path)
        }
        if failure.code == SQLITE_READONLY {
            return .readOnly(path: path)
        }
        if failure.code == SQLITE_FULL {
            return .diskFull(path: path)
        }
        // Said as the limit it is, not as "SQLite error 14: unable to open database file": the
        // catalogue is fine, the process may open no more files (or the system has no memory).
        if failure.code == SQLITE_NOMEM {
            return .outOfResources(path: path, reason: "the system is out of memory")
        }
        if failure.code == SQLITE_CANTOPEN || failure.code == SQLITE_IOERR,
           let shortage = RegularFile.shortage(sqlite3_system_errno(handle)) {
            return .outOfResources(path: path, reason: shortage)
        }
        return .sqlite(failure)
    }

    static func failure(_ handle: OpaquePointer, code: Int32, sql: String?, path: String) -> SQLiteFailure {
        let extended = sqlite3_extended_errcode(handle)
        // The connection's message belongs to its latest failure; if the code
        // differs (a failure in finalize or reset), fall back to the generic text.
        var message = (extended & 0xff) == (code & 0xff)
            ? String(cString: sqlite3_errmsg(handle))
            : String(cString: sqlite3_errstr(code))
        // "unable to open database file" and "disk I/O error" say nothing of why; the system did.
        let system = sqlite3_system_errno(handle)
        if code & 0xff == SQLITE_CANTOPEN || code & 0xff == SQLITE_IOERR, system != 0 {
            message += " (\(RegularFile.text(of: system)))"
        }
        return SQLiteFailure(code: code & 0xff, extendedCode: extended & 0xff == code & 0xff ? extended : code,
                             message: message, sql: sql, path: path)
    }
}
