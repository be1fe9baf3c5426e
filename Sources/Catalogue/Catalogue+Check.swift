import CSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Damage: found cheaply before every write, fully on request.
///
/// A full `PRAGMA integrity_check` reads every page: on a 1M-image catalogue
/// (about 12 GB with thumbnails) far too long to run before each write. What a
/// writing command runs instead costs a few page reads whatever the size: the
/// file's header against its size, the schema, and the right-most path of the
/// tables and indexes a run writes first (where new rows go). Anything else is
/// met when a command reads it: the first SQLITE_CORRUPT stops the command
/// (`CatalogueError.damaged`) and the process writes nothing more. A catalogue of
/// at most `quickCheckBytes` is read whole (`quick_check`) before a write.
extension Catalogue {
    /// The cheap look described above; throws `.damaged` for what it finds.
    public func checkCheaply() throws {
        if let problem = Catalogue.headerProblem(database) {
            throw Database.recordDamage(.damaged(path: path, detail: problem), at: path)
        }
        for sql in Catalogue.rightMostReads {
            _ = try database.rows(sql) { _ in () }
        }
    }

    /// Catalogues up to this size get SQLite's `quick_check` (every page read, each b-tree's
    /// structure and the free list verified, indexes not compared with their tables) before a
    /// command writes: about 0.45 ms a megabyte from the page cache, so at most about 15 ms
    /// (a catalogue of about 2,000 photos). Larger ones get the cheap look only, and
    /// `wardrobe check` when asked.
    public static let quickCheckBytes = 32 << 20

    /// `quick_check` when the file is at most `quickCheckBytes`; throws `.damaged` for what it finds.
    func quickCheckIfSmall() throws {
        guard database.path != ":memory:", let (_, size) = Catalogue.fileHeader(database.handle),
              size <= Catalogue.quickCheckBytes else { return }
        let found = try database.rows("PRAGMA quick_check(3)") { $0.text("quick_check") }
        guard found != ["ok"] else { return }
        // SQLite's lines, some holding line breaks of their own, as one line.
        let lines = found.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
        throw Database.recordDamage(.damaged(path: path, detail: "quick_check: " + lines.joined(separator: "; ")), at: path)
    }

    /// The SQL of every table, index, view and trigger the embedded migrations make, by type
    /// and name, as a catalogue they make in memory holds it (SQLite rewrites a table's text
    /// when a step adds a column, alike in a new catalogue and an upgraded one). Nil when that
    /// catalogue cannot be made, which every other test of the migrations would show.
    static let madeSchema: [String: String]? = {
        guard let made = try? Catalogue(path: ":memory:", mode: .create) else { return nil }
        return try? Catalogue.schemaText(made.database)
    }()

    /// The SQL of every table, index, view and trigger in `database`, by type and name.
    public static func schemaText(_ database: Database) throws -> [String: String] {
        Dictionary(try database.rows("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL") {
            ($0.text(0) + " " + $0.text(1), $0.text(2))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Refuses, before a command writes, a catalogue whose schema's text is not what the
    /// migrations wrote. A flipped bit in a trigger's SQL ('NEW.p' where 'NEW.path' was) passes
    /// every check of SQLite's, which read pages and not what they say, and stopped the first
    /// insert of an import with "no such column: NEW.p", after the import had opened its run.
    func checkSchemaText(migrator: Migrator) throws {
        guard migrator.latestVersion == Migrator.embedded.latestVersion else { return }
        let differing = try Catalogue.objectsNotAsWritten(database)
        guard let first = differing.first else { return }
        let detail = "the SQL of its \(first) is not what wardrobe wrote"
            + (differing.count > 1 ? " (and \(differing.count - 1) more)" : "")
        throw Database.recordDamage(.damaged(path: path, detail: detail), at: path)
    }

    /// The objects ("trigger name", "index name") whose SQL is not what this wardrobe's
    /// migrations write, in order of type and name; none for a catalogue at another schema
    /// step (an older one is read as it is) or in memory. Objects another program added, or
    /// dropped (a trigger taken away to change a value, which the checks of values name), are
    /// that program's doing, not a disk's: only the text of those wardrobe makes and that are
    /// there is read.
    static func objectsNotAsWritten(_ database: Database) throws -> [String] {
        guard database.path != ":memory:", try Migrator.version(of: database) == Migrator.embedded.latestVersion
        else { return [] }
        let stored = try Catalogue.schemaText(database)
        // Most openings end here: the text as this SQLite wrote it when WrittenSchema was made.
        if WrittenSchema.version == Migrator.embedded.latestVersion,
           WrittenSchema.digests.allSatisfy({ key, digest in stored[key].map(WrittenSchema.digest) ?? digest == digest }) {
            return []
        }
        guard let made = Catalogue.madeSchema else { return [] }
        return made.keys.sorted().filter { stored[$0] != nil && stored[$0] != made[$0] }
    }

    /// Reads that walk from each b-tree's root to its last leaf. A table's largest rowid is read
    /// NOT INDEXED: an index that starts with it (images_by_fingerprint) answers max(id) too, and
    /// would leave the table's own b-tree unread.
    static let rightMostReads = [
        "SELECT count(*) FROM sqlite_schema",
        "SELECT max(id) FROM images NOT INDEXED",
        "SELECT sha256 FROM images ORDER BY sha256 DESC LIMIT 1",
        "SELECT max(id) FROM classifications NOT INDEXED",
        "SELECT image_id, run_id FROM classifications ORDER BY image_id DESC, run_id DESC LIMIT 1",
        "SELECT max(image_id) FROM current_classifications NOT INDEXED",
        "SELECT machine, path FROM image_paths ORDER BY machine DESC, path DESC LIMIT 1",
        "SELECT max(id) FROM runs NOT INDEXED",
        "SELECT max(id) FROM models NOT INDEXED",
        "SELECT max(id) FROM import_failures NOT INDEXED",
    ]

    /// What is wrong with the first 100 bytes of the file, if anything: the
    /// magic, a page size SQLite could have written, and a page count (when
    /// the header vouches for it and no WAL holds pages that a checkpoint has
    /// not copied yet, as after a full disk) that the file's size can hold.
    ///
    /// Read through the connection's own file handle: opening the file a
    /// second time and closing it would drop every POSIX lock this process
    /// holds on it, and another process closing its connection would then
    /// think itself the last, checkpoint and delete the WAL under ours.
    static func headerProblem(_ database: Database) -> String? {
        guard database.path != ":memory:", !database.path.isEmpty,
              let (header, size) = fileHeader(database.handle) else { return nil }
        if size == 0 { return nil }
        if size < 100 { return "the file ends inside its header" }
        guard header.starts(with: Array("SQLite format 3\0".utf8)) else { return "the header's magic is wrong" }
        func u32(_ at: Int) -> Int { Int(header[at]) << 24 | Int(header[at + 1]) << 16 | Int(header[at + 2]) << 8 | Int(header[at + 3]) }
        let raw = Int(header[16]) << 8 | Int(header[17])
        let pageSize = raw == 1 ? 65_536 : raw
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return "the header's page size \(raw) is impossible" }
        let pages = u32(28)
        if !Database.logHoldsFrames(database.path), u32(24) == u32(92), pages > 0, pages * pageSize > size {
            return "the header counts \(pages) pages of \(pageSize) bytes but the file holds \(size) bytes"
        }
        return nil
    }

    /// The file's first 100 bytes (fewer if it is shorter) and its size, read
    /// through the connection's own file handle (see `headerProblem`).
    static func fileHeader(_ handle: OpaquePointer) -> (header: [UInt8], size: Int)? {
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
              let file = pointer, let methods = file.pointee.pMethods else { return nil }
        var fileSize: sqlite3_int64 = 0
        guard methods.pointee.xFileSize(file, &fileSize) == SQLITE_OK else { return nil }
        var header = [UInt8](repeating: 0, count: min(100, Int(fileSize)))
        if header.isEmpty { return (header, 0) }
        let count = Int32(header.count)
        guard header.withUnsafeMutableBytes({ methods.pointee.xRead(file, $0.baseAddress, count, 0) }) == SQLITE_OK
        else { return nil }
        return (header, Int(fileSize))
    }

    /// Whether the file's own first 100 bytes are a header SQLite accepts: the magic, a page
    /// size, file format bytes of 1 or 2, and the fixed payload fractions (64, 32, 32). Read
    /// through the connection's own file handle (see `headerProblem`).
    static func hasWholeHeader(_ handle: OpaquePointer) -> Bool {
        guard let (header, _) = fileHeader(handle), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return false }
        let raw = Int(header[16]) << 8 | Int(header[17])
        let pageSize = raw == 1 ? 65_536 : raw
        return pageSize >= 512 && pageSize & (pageSize - 1) == 0 && (1...2).contains(header[18]) && (1...2).contains(header[19])
            && header[21] == 64 && header[22] == 32 && header[23] == 32
    }

    /// Whether a file SQLite refused as no database still carries a wardrobe
    /// catalogue's application id where SQLite keeps it (bytes 68-71): then it
    /// is a catalogue whose header was damaged, not some other file, and the
    /// person needs the way to recover, not "not a catalogue".
    static func isDamagedCatalogue(_ handle: OpaquePointer) -> Bool {
        guard let (header, _) = fileHeader(handle), header.count == 100 else { return false }
        let id = header[68..<72].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return id == applicationID
    }
}

extension Database {
    /// `PRAGMA integrity_check` over every page: "ok", or SQLite's list of what
    /// is damaged (at most `limit` lines). `progress` is called now and then
    /// with the seconds spent, from the checking thread; returning false stops it.
    public func integrityCheck(limit: Int = 100, progress: @escaping (Double) -> Bool) throws -> [String] {
        final class Context {
            let start = Date()
            let progress: (Double) -> Bool
            var lastCall = Date.distantPast
            init(_ progress: @escaping (Double) -> Bool) { self.progress = progress }
        }
        let context = Context(progress)
        let pointer = Unmanaged.passRetained(context).toOpaque()
        defer { Unmanaged<Context>.fromOpaque(pointer).release() }
        sqlite3_progress_handler(handle, 100_000, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue()
            guard Date().timeIntervalSince(context.lastCall) >= 0.2 else { return 0 }
            context.lastCall = Date()
            return context.progress(Date().timeIntervalSince(context.start)) ? 0 : 1
        }, pointer)
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        return try rows("PRAGMA integrity_check(\(max(1, limit)))") { $0.text("integrity_check") }
    }
}

extension Database {
    /// Values wardrobe never stores, which its readers refuse (`CatalogueError.strangeValue`):
    /// one line per kind found, with how many rows hold it. `integrity_check` verifies the
    /// schema's CHECKs only on a connection that may write (`check` reads), and
    /// current_classifications and the kept counts have none.
    /// All in one snapshot: read one after another, the kept counts and the rows' counts of
    /// a catalogue an import was writing to differed by the batch committed between them, and
    /// `check` called the catalogue damaged.
    public func strangeValues() throws -> [String] {
        try transaction(.deferred) {
            var lines = try Self.strangeValueChecks.compactMap { what, sql in
                let count = try scalarInt(sql) ?? 0
                return count == 0 ? nil : "\(what): \(count) \(count == 1 ? "row" : "rows") (changed by another program)"
            }
            lines += try rowsReferringNowhere()
            if let line = try StoredColours.checkLine({ sql in try rows(sql) { $0.text("colours") } }) { lines.append(line) }
            if let line = try KeptCounts.check({ try (keptCounts(), recountedCounts()) }) { lines.append(line) }
            return lines
        }
    }

    /// SQLite's `foreign_key_check`, counted by table and the table referred to: rows another
    /// program left behind with its foreign keys off (`sqlite3`'s default), as when it deleted
    /// an image and not its classifications. `check` found no damage in them, and `copy` met
    /// them as 'SQLite error 19 ... FOREIGN KEY constraint failed - while executing INSERT ...'.
    func rowsReferringNowhere() throws -> [String] {
        let found = try rows("PRAGMA foreign_key_check") { "\($0.text("table")) referring to \($0.text("parent"))" }
        let counts = Dictionary(found.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.sorted { $0.key < $1.key }.map { what, count in
            "\(what) that are not there: \(count) \(count == 1 ? "row" : "rows") (changed by another program)"
        }
    }

    private static func time(_ column: String) -> String {
        "(typeof(\(column)) != 'integer' OR \(column) NOT BETWEEN \(Statement.storedTimes.lowerBound) AND \(Statement.storedTimes.upperBound))"
    }

    private static func label(_ column: String, upTo highest: Int) -> String {
        "(typeof(\(column)) != 'integer' OR \(column) NOT BETWEEN 0 AND \(highest))"
    }

    private static let confidence = "(confidence IS NULL OR NOT (confidence BETWEEN 0 AND 1))"

    /// Logits of 40 bytes, one of which is infinite or NaN: a little-endian float32 whose
    /// exponent bits are all ones (byte 3 is 7F or FF, byte 2 at least 80). Bytes as the
    /// readers take them: a value stored as text counts its UTF-8 bytes.
    private static let nonFiniteLogit = "(length(CAST(logits AS BLOB)) = 40 AND (" + (0..<10).map { index in
        "(hex(substr(CAST(logits AS BLOB), \(index * 4 + 4), 1)) IN ('7F', 'FF') "
            + "AND hex(substr(CAST(logits AS BLOB), \(index * 4 + 3), 1)) >= '80')"
    }.joined(separator: " OR ") + "))"

    static let strangeValueChecks: [(String, String)] = [
        ("classifications with a label outside 0 to 9",
         "SELECT count(*) FROM classifications WHERE \(label("label", upTo: 9))"),
        ("classifications with logits of other than 40 bytes",
         "SELECT count(*) FROM classifications WHERE length(logits) IS NOT 40"),
        ("classifications with a logit that is not a finite number",
         "SELECT count(*) FROM classifications WHERE \(nonFiniteLogit)"),
        ("classifications with a confidence outside 0 to 1",
         "SELECT count(*) FROM classifications WHERE \(confidence)"),
        ("classifications with a time outside the years 1 to 9999",
         "SELECT count(*) FROM classifications WHERE \(time("classified_at"))"),
        ("current classifications with a label outside 0 to 9",
         "SELECT count(*) FROM current_classifications WHERE \(label("label", upTo: 9))"),
        ("current classifications with a person's label outside 0 to 10",
         "SELECT count(*) FROM current_classifications WHERE corrected_label IS NOT NULL AND \(label("corrected_label", upTo: 10))"),
        ("current classifications with a confidence outside 0 to 1",
         "SELECT count(*) FROM current_classifications WHERE \(confidence)"),
        ("current classifications with a time outside the years 1 to 9999",
         "SELECT count(*) FROM current_classifications WHERE \(time("classified_at"))"),
        ("corrections with a label outside 0 to 10",
         "SELECT count(*) FROM corrections WHERE label IS NOT NULL AND \(label("label", upTo: 10))"),
        ("corrections with a time outside the years 1 to 9999",
         "SELECT count(*) FROM corrections WHERE \(time("corrected_at"))"),
        ("colour corrections with a time outside the years 1 to 9999",
         "SELECT count(*) FROM colour_corrections WHERE \(time("corrected_at"))"),
        ("images with a time outside the years 1 to 9999",
         "SELECT count(*) FROM images WHERE \(time("first_imported")) OR (taken_at IS NOT NULL AND \(time("taken_at")))"),
        ("images with a capture time's offset past 14:59 hours",
         "SELECT count(*) FROM images WHERE taken_offset NOT BETWEEN \(TakenTime.offsets.lowerBound) AND \(TakenTime.offsets.upperBound)"),
        ("paths with a time outside the years 1 to 9999",
         "SELECT count(*) FROM image_paths WHERE \(time("last_seen")) OR (checked_at IS NOT NULL AND \(time("checked_at")))"),
        ("models with a time outside the years 1 to 9999",
         "SELECT count(*) FROM models WHERE \(time("registered_at"))"),
        ("runs with a time outside the years 1 to 9999",
         "SELECT count(*) FROM runs WHERE \(time("started_at")) OR (finished_at IS NOT NULL AND \(time("finished_at")))"),
        ("model adoptions with a time outside the years 1 to 9999",
         "SELECT count(*) FROM model_adoptions WHERE \(time("adopted_at"))"),
        ("import failures with a time outside the years 1 to 9999",
         "SELECT count(*) FROM import_failures WHERE \(time("failed_at"))"),
        ("failing files with a time outside the years 1 to 9999",
         "SELECT count(*) FROM failing_files WHERE \(time("first_failed")) OR \(time("last_failed"))"),
        // Read as missing by `reclassify`, which prepares the tensor again and keeps it in its place.
        ("prepared tensors of other than 3,136 bytes",
         "SELECT count(*) FROM prepared_tensors WHERE length(CAST(tensor AS BLOB)) IS NOT 3136"),
        // total(), not sum(): a sum past Int64.max is SQLite's "integer overflow" error.
        ("image counts per label below 0 or adding up past \(Int64.max)",
         "SELECT CASE WHEN min(images) < 0 OR total(images) > 9.2e18 THEN count(*) ELSE 0 END FROM label_counts"),
    ]
}
