import CSQLite

/// Every error the Catalogue module throws. Messages are one line, name the
/// catalogue file and say what to do where there is something to do.
public enum CatalogueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite refused a call: its codes, message, and the SQL being run.
    case sqlite(SQLiteFailure)
    /// Opening without `create` and the file is not there, or is empty (no catalogue yet).
    case fileNotFound(path: String)
    /// Writing was asked for and the file, or its folder, cannot be written.
    case readOnly(path: String)
    /// The folder for a new catalogue could not be made.
    case cannotCreate(path: String, reason: String)
    /// The file exists but is not an SQLite database at all.
    case notADatabase(path: String)
    /// The path names something other than a regular file (`kind`: "a directory", "a FIFO").
    case notAFile(path: String, kind: String)
    /// A file SQLite keeps beside the catalogue (`-wal`, `-shm`, `-journal`) is there as
    /// something other than a regular file (`kind`: "a directory", "a FIFO", "a symbolic link
    /// to nothing").
    case companionNotAFile(path: String, kind: String)
    /// The name is the one SQLite gives another database's side file (`database` + `-wal`,
    /// `-shm` or `-journal`): a catalogue made there would be taken for that file, or deleted as one.
    case companionName(path: String, database: String)
    /// A `-wal` file lies beside a catalogue that was not written through it: the catalogue
    /// was replaced (a restored backup) while the replaced one's write-ahead log stayed.
    case foreignWriteAheadLog(path: String)
    /// No catalogue is at `path`, but a side file SQLite would delete as it makes one is
    /// (`file`, not empty).
    case leftoverSideFile(path: String, file: String)
    /// The catalogue's file has `names` hard links: SQLite keeps a write-ahead log beside
    /// each name, so writers through two names lose each other's work.
    case severalNames(path: String, names: Int)
    /// The catalogue's `-wal` is shorter than its index in the `-shm` says (SQLITE_IOERR_SHORT_READ;
    /// the pager reads the catalogue file's own short reads as zeros): the log was deleted,
    /// replaced or cut short while another process was writing through it.
    case logCutShort(path: String)
    /// The catalogue's `-shm` (the index of its write-ahead log) was deleted while another
    /// process (`holder`) has it open: a connection opened now would make an index of its own
    /// and write into the log beside that process, each overwriting the other's writes.
    case logIndexDeleted(path: String, holder: Int32)
    /// SQLite read a first page that is not a database page while the file's own header is
    /// whole and a `-wal` holding frames lies beside it: the page came through the log, which
    /// was replaced (copied over) or damaged while another process had the catalogue open.
    case logPageUnreadable(path: String)
    /// A `-journal` beside the catalogue holds writes that did not finish, and a read-only
    /// connection cannot roll them back (SQLITE_READONLY_ROLLBACK).
    case journalToRollBack(path: String)
    /// A valid SQLite database made by some other program.
    case foreignDatabase(path: String, detail: String)
    /// Made by a newer wardrobe: refused untouched.
    case newerCatalogue(path: String, version: Int, supported: Int)
    /// Opened read-only, but the schema is older than this binary's.
    case needsMigration(path: String, version: Int, supported: Int)
    /// A migration's SQL failed; the catalogue stays at the version before it.
    case migrationFailed(version: Int, name: String, failure: SQLiteFailure)
    /// SQLite could not grow a file (SQLITE_FULL): the transaction was rolled back.
    case diskFull(path: String)
    /// SQLite could not open or grow a file because the process or the system lacks open files
    /// or memory (`RegularFile.shortage`): what failed was rolled back; the catalogue is fine.
    case outOfResources(path: String, reason: String)
    /// A hash prefix matched more than one image.
    case ambiguousHashPrefix(prefix: String, matches: Int)
    /// A value handed to the API that cannot be stored (wrong logit count, bad hex...).
    case invalidArgument(String)
    /// An id that names no row (unknown run, image, model).
    case notFound(String)
    /// A backup was not written, or its copy failed the check; the reason says which.
    case backupFailed(path: String, reason: String)
    /// SQLite met a damaged page (SQLITE_CORRUPT) or a damaged header: the
    /// process writes nothing more to any catalogue.
    case damaged(path: String, detail: String)
    /// A row holds a value this binary never stores (a label of 99, a logits blob of the wrong
    /// length, an infinite confidence): another program changed it. SQLite sees nothing wrong.
    case strangeValue(path: String, detail: String)
    /// A PostgreSQL server could not be reached or refused a call: the server as
    /// `PostgresLocation` names it (never with its password), and what failed.
    case server(location: String, detail: String)
    /// The PostgreSQL server cannot be reached now: it refused or dropped the connection
    /// (stopped, restarting, unreachable), so the same call may go through later. Said as
    /// `server` says its line; told apart so that `serve` answers 503, not a failure of its own.
    case serverUnreachable(location: String, detail: String)
    /// The PostgreSQL server refused a statement because the role connected may not do it
    /// (SQLSTATE 42501: no right to write a table, or to create one in the schema): the
    /// server's reason. Told apart from `server` to say what the role needs, and so that
    /// `serve` answers that nothing could be saved rather than a failure of its own.
    case serverDenied(location: String, reason: String)
    /// The PostgreSQL server refused a write because the database takes none (SQLSTATE 25006:
    /// a standby, or `default_transaction_read_only` set on the database or role by its owner).
    /// Told apart from `server` to say so in a line rather than the server's words and SQL, and
    /// so that `serve` answers that nothing could be saved.
    case serverReadOnly(location: String)
    /// The PostgreSQL server cancelled a statement (SQLSTATE 57014: an administrator's
    /// `pg_cancel_backend`, a `statement_timeout`): the server's reason. Its own kind so that
    /// the line says what happened to the work rather than the server's words and SQL, and
    /// `serve` answers 503: the same request may go through again.
    case serverCancelled(location: String, reason: String)
    /// The PostgreSQL server would not open another connection: the role's or database's
    /// `CONNECTION LIMIT` or the server's `max_connections` was reached (the server's reason).
    /// Its own kind so that `serve` says so, and waits for a connection it has open instead.
    case serverFull(location: String, reason: String)
    /// What a command cannot mean for a catalogue on this engine, and what to use instead.
    case notOnThisEngine(location: String, detail: String)
    /// `copy` would not copy, or its copy did not come out the same: the catalogue it names, and why.
    case copyRefused(path: String, reason: String)

    public var description: String {
        switch self {
        case .sqlite(let failure) where failure.code == SQLITE_BUSY:
            // Another process held the lock past the busy timeout (a `sqlite3` shell left in a
            // transaction, a long `forget`): said as such, with what became of the work, where
            // SQLite's "database is locked - while executing `BEGIN IMMEDIATE`" told neither.
            return "\(failure.path): another process kept the catalogue locked for more than "
                + "\(Database.busyTimeoutSeconds) s, so nothing more could be written; what was written before is kept; "
                + "run the command again when that process is done (\(failure.detail))"
        case .sqlite(let failure):
            return failure.description
        case .fileNotFound(let path):
            return "\(path): no catalogue there yet; import photos first ('wardrobe import FOLDER'), "
                + "or name another catalogue with --db"
        case .readOnly(let path):
            return "\(path): the catalogue cannot be written (a read-only file, folder or medium); nothing can be "
                + "written there, but list, show, history, stats, export and serve --read-only still read it"
        case .cannotCreate(let path, let reason):
            return "\(path): cannot create the catalogue: \(reason)"
        case .notADatabase(let path):
            return "\(path): not a wardrobe catalogue (the file is not an SQLite database)"
        case .companionNotAFile(let path, let kind):
            return "\(path): SQLite keeps a file of the catalogue's there, and it is \(kind), where only a regular file "
                + "or nothing may be; move it out of the way"
        case .companionName(let path, let database):
            return "\(path): SQLite gives that name to a side file of the database \(database), so a catalogue there "
                + "would be taken for it, or deleted as one; name the catalogue otherwise"
        case .foreignWriteAheadLog(let path):
            return "\(path): \(path)-wal was not written for this file (it was replaced, as by a restored backup, while "
                + "the old catalogue's write-ahead log stayed beside it), and opening it would write that log's pages "
                + "into it; nothing was read or written. Move \(path)-wal and \(path)-shm out of the way (they may hold "
                + "the replaced catalogue's last writes), then run the command again"
        case .leftoverSideFile(let path, let file):
            return "\(path): no catalogue is there, but \(file) is, and making one would delete it as that catalogue's "
                + "log; nothing was made. Move \(file) out of the way (it may hold another catalogue's writes, or a copy "
                + "given that name), then run the command again"
        case .severalNames(let path, let names):
            return "\(path): the catalogue's file has \(names) names (hard links), and SQLite keeps a write-ahead log "
                + "beside each name, so commands writing through two of them lose each other's work; nothing was "
                + "written. Remove the other names, or make a separate catalogue with 'wardrobe backup'"
        case .logCutShort(let path):
            return "\(path): \(path)-wal, the catalogue's write-ahead log, is shorter than its index (\(path)-shm) says: "
                + "it was deleted, replaced or cut short while another process was writing to the catalogue; nothing was "
                + "read or written. Let the processes using the catalogue end (the last to close keeps what it wrote), "
                + "then run the command again"
        case .logIndexDeleted(let path, let holder):
            return "\(path): \(path)-shm, the index of the catalogue's write-ahead log, was deleted while another process "
                + "(pid \(holder)) has the catalogue open; opening it now would write into the log beside that process, and "
                + "each would overwrite what the other wrote, so nothing was read or written. Let that process end (it "
                + "keeps what it wrote), then run the command again"
        case .logPageUnreadable(let path):
            return "\(path): the catalogue's first page as \(path)-wal holds it is not a database page, while the file's own "
                + "header is whole: the write-ahead log was replaced or damaged while another process had the catalogue "
                + "open; nothing more was written. Once the processes using the catalogue have ended, run the command "
                + "again ('wardrobe check --db \(path)' says whether anything is damaged)"
        case .journalToRollBack(let path):
            return "\(path): \(path)-journal beside it holds writes that did not finish, which must be rolled back "
                + "before it can be read, and this command only reads; run a command that writes to it (an import) "
                + "once, or, if that file is not the catalogue's, move it out of the way"
        case .notAFile(let path, let kind):
            return "\(path): not a wardrobe catalogue: \(kind), where a catalogue is a regular file"
        case .foreignDatabase(let path, let detail):
            // A server's catalogue is named by its URL (`PostgresLocation.displayName`): a
            // PostgreSQL database of another program was called an SQLite one.
            let engine = path.hasPrefix("postgresql://") ? "a PostgreSQL" : "an SQLite"
            return "\(path): not a wardrobe catalogue (\(engine) database of another program: \(detail)); refusing to change it"
        case .newerCatalogue(let path, let version, let supported):
            return "\(path): catalogue version \(version) was written by a newer wardrobe (this one knows up to \(supported)); upgrade wardrobe to open it. Nothing was changed."
        case .needsMigration(let path, let version, let supported):
            return "\(path): catalogue version \(version) must be upgraded to \(supported); open it once for writing"
        case .migrationFailed(let version, let name, let failure):
            return "migration \(version) (\(name)) failed, the catalogue stays at version \(version - 1): \(failure)"
        case .diskFull(let path):
            return "\(path): the disk is full, so this write was rolled back and what was stored before it is "
                + "unchanged; free some space and run the command again (an import goes on where it stopped)"
        case .outOfResources(let path, let reason):
            return "\(path): the catalogue could not be opened or written: \(reason); what was stored before is "
                + "unchanged; run the command again once there is room (an import goes on where it stopped)"
        case .ambiguousHashPrefix(let prefix, let matches):
            return "hash prefix \(prefix) matches \(matches) images; give more digits"
        case .invalidArgument(let message):
            return message
        case .notFound(let message):
            return message
        case .backupFailed(let path, let reason):
            return "\(path): backup not made: \(reason)"
        case .strangeValue(let path, let detail):
            return "\(path): the catalogue holds a value wardrobe never stores (\(detail)), so another program "
                + "changed it; nothing was changed. 'wardrobe check --db \(path)' lists every such value; "
                + "undo that change or restore your last backup"
        case .server(let location, let detail), .serverUnreachable(let location, let detail):
            return "\(location): PostgreSQL: \(detail)"
        case .serverDenied(let location, let reason):
            return "\(location): PostgreSQL: \(reason) (SQLSTATE 42501): the role connected may not do this; grant it "
                + "SELECT, INSERT, UPDATE and DELETE on the catalogue's tables (and CREATE on its schema, to make one), "
                + "or connect as a role that has them"
        case .serverReadOnly(let location):
            return "\(location): PostgreSQL: the database takes no writes (a standby server, or default_transaction_read_only "
                + "set on it or on the role), so nothing was written; list, show, history, stats and export still read it. "
                + "Write through the primary server, or have the owner reset the setting "
                + "(ALTER DATABASE or ROLE NAME RESET default_transaction_read_only)"
        case .serverCancelled(let location, let reason):
            return "\(location): PostgreSQL: the server cancelled a statement (\(reason)): an administrator or a "
                + "statement_timeout ended it; what was committed before it stays, what it was writing was not "
                + "written; run the command again"
        case .serverFull(let location, let reason):
            return "\(location): PostgreSQL: cannot connect: the server takes no more connections for this role or "
                + "database now (\(reason)), and a command that writes holds two at once (serve one a thread); "
                + "nothing was written. Let other sessions end, or raise the limit (ALTER ROLE or DATABASE NAME "
                + "CONNECTION LIMIT, or max_connections)"
        case .notOnThisEngine(let location, let detail):
            return "\(location): \(detail)"
        case .copyRefused(let path, let reason):
            return "\(path): not copied: \(reason)"
        case .damaged(let path, let detail):
            return "\(path): the catalogue is damaged (\(detail)); nothing more was written to it. "
                + "See what is damaged with 'wardrobe check --db \(path)'; recover with "
                + "'sqlite3 \(path) .recover | sqlite3 recovered.sqlite' or restore your last backup"
        }
    }

    /// SQLite's primary result code, when SQLite refused the call.
    public var sqliteCode: Int32? {
        switch self {
        case .sqlite(let failure), .migrationFailed(_, _, let failure): return failure.code
        case .diskFull: return SQLITE_FULL
        default: return nil
        }
    }
}
