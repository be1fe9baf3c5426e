import CSQLite
import Foundation

/// The wardrobe catalogue: one SQLite file of images, models, runs and every
/// classification. One instance is one connection, for one thread at a time;
/// other threads and processes open their own.
///
/// Durability: WAL with `synchronous=NORMAL`. A committed batch survives the
/// process being killed at any moment; after a power cut or OS crash the most
/// recent commits may be lost, but the file is never corrupted.
public final class Catalogue {
    /// `PRAGMA application_id` of a wardrobe catalogue ("WRDB").
    public static let applicationID: Int64 = 0x5752_4442
    /// Labels are the ten Fashion-MNIST classes; logits are stored as 10 x float32.
    public static let labelCount = 10
    /// A prepared tensor, as `prepared_tensors` keeps it: 28 x 28 float32 values.
    public static let tensorValueCount = 28 * 28

    public let database: Database
    public var path: String { database.path }
    /// The machine this connection records paths for and judges the paths of (`Machine`).
    public let machine: String

    /// What SQLite adds to a catalogue's name for the files it keeps beside it ("" is the
    /// catalogue itself): its write-ahead log, shared memory and rollback journal.
    public static let fileSuffixes = ["", "-wal", "-shm", "-journal"]
    /// Runs whose process died before closing them, marked interrupted by
    /// this opening (for writing), so the command can say so, once.
    public private(set) var abandonedRuns: [RunRecord] = []

    /// Opens (and with `.create`, creates) a catalogue and brings its schema up
    /// to date. A catalogue newer than `migrator` knows, or a file that is not
    /// a wardrobe catalogue, is refused before anything is written.
    /// `lookForDamage: false` skips the cheap look for damage on a read-only
    /// open, for the extra readers of a process whose first connection has
    /// just looked (a run's workers).
    public init(path: String, mode: Database.Mode = .create, migrator: Migrator = .embedded,
                lookForDamage: Bool = true, machine: String = Machine.current) throws {
        database = try Database(path: path, mode: mode)
        self.machine = machine
        // One snapshot for the whole look: its parts must not straddle another
        // process's migration.
        try database.transaction(.deferred) { try Catalogue.checkIdentity(database, migrator: migrator) }
        if mode == .readOnly {
            try database.executeScript("PRAGMA foreign_keys = ON")
            let version = try Migrator.version(of: database)
            // An empty file (made by `touch`, or by a first open that never got to write) holds
            // no catalogue yet, as no file does; it is not an old catalogue to upgrade.
            if version == 0, try database.scalarInt("SELECT count(*) FROM sqlite_master") == 0 {
                throw CatalogueError.fileNotFound(path: path)
            }
            if version < migrator.latestVersion {
                throw CatalogueError.needsMigration(path: path, version: version, supported: migrator.latestVersion)
            }
            // Readers look too: damage met now stops the command before it prints half an answer.
            if lookForDamage { try checkCheaply() }
            return
        }
        // Before anything is written: a file with a damaged header is refused.
        if let problem = Catalogue.headerProblem(database) {
            throw Database.recordDamage(.damaged(path: path, detail: problem), at: path)
        }
        // A small catalogue is read whole, so no page of it is damaged where a write may go.
        try quickCheckIfSmall()
        // A 64 MiB page cache and checkpoints every ~40 MB of WAL: large
        // batches of random-keyed inserts (hashes) rewrite fewer pages.
        try Catalogue.turnOnWAL(database)
        try database.executeScript("""
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            PRAGMA cache_size = -65536;
            PRAGMA wal_autocheckpoint = 10000;
            """)
        // Checked once more, with the migration, inside one exclusive transaction:
        // another process may be creating the same new catalogue right now, and
        // its half-made state must never be judged from outside.
        if try Catalogue.needsMigration(database, migrator: migrator) {
            try migrator.migrate(database) { try Catalogue.checkIdentity(database, migrator: migrator) }
        }
        // And the pages a run writes first, before it writes them.
        try checkCheaply()
        try checkSchemaText(migrator: migrator)
        abandonedRuns = try markAbandonedRuns()
        try takeUnnamedPaths()
    }

    /// Paths, and failing files, recorded before machines had names (the empty name, see
    /// migrations 22 and 28) become this machine's: a catalogue made before then was one
    /// machine's. One probe of each key when there are none, which is every opening but the first.
    private func takeUnnamedPaths() throws {
        for table in Catalogue.machineTables
        where try database.scalarInt("SELECT 1 FROM \(table) WHERE machine = '' LIMIT 1") != nil {
            try database.transaction { try database.execute("UPDATE \(table) SET machine = :machine WHERE machine = ''",
                                                            [":machine": machine]) }
        }
    }

    /// The tables whose rows are keyed by the machine they were recorded on.
    static let machineTables = ["image_paths", "failing_files"]

    /// WAL mode is kept in the file; turning it on takes a lock for which
    /// SQLite does not wait (several processes opening one new catalogue at
    /// once): so this waits, as the busy timeout would.
    private static func turnOnWAL(_ database: Database) throws {
        let deadline = Date().addingTimeInterval(Double(Database.busyTimeoutSeconds))
        while true {
            do {
                try database.executeScript("PRAGMA journal_mode = WAL")
                return
            } catch let error as CatalogueError where error.sqliteCode == SQLITE_BUSY && Date() < deadline {
                usleep(5_000)
            }
        }
    }

    /// True unless the file is a wardrobe catalogue at the latest version (the
    /// common case, which takes no write lock).
    private static func needsMigration(_ database: Database, migrator: Migrator) throws -> Bool {
        try database.transaction(.deferred) {
            let applicationID = try database.scalarInt("PRAGMA application_id") ?? 0
            let version = try Migrator.version(of: database)
            return applicationID != Catalogue.applicationID || version < migrator.latestVersion
        }
    }

    /// The schema version recorded in the file.
    public var version: Int {
        get throws { try Migrator.version(of: database) }
    }

    /// Reads the header only: is this empty, ours, or someone else's, and not too new?
    private static func checkIdentity(_ database: Database, migrator: Migrator) throws {
        let applicationID = try database.scalarInt("PRAGMA application_id") ?? 0
        let version = Int(try database.scalarInt("PRAGMA user_version") ?? 0)
        if applicationID == Catalogue.applicationID {
            if version > migrator.latestVersion {
                throw CatalogueError.newerCatalogue(path: database.path, version: version, supported: migrator.latestVersion)
            }
            // No wardrobe writes a version below 0: readers were told to upgrade it by writing,
            // and writing it then failed, re-making the tables that were there.
            if version < 0 {
                throw Database.recordDamage(.damaged(path: database.path, detail: "its schema version is \(version), "
                                                     + "which no wardrobe writes"), at: database.path)
            }
            return
        }
        if applicationID != 0 {
            throw CatalogueError.foreignDatabase(
                path: database.path, detail: String(format: "application id 0x%08x", applicationID))
        }
        let objects = try database.rows("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' LIMIT 3") {
            $0.text("name")
        }
        if !objects.isEmpty || version != 0 {
            let detail = objects.isEmpty ? "user version \(version)" : "tables " + objects.joined(separator: ", ")
            throw CatalogueError.foreignDatabase(path: database.path, detail: detail)
        }
    }

    /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems.
    public func integrityCheck() throws -> [String] {
        try database.rows("PRAGMA integrity_check") { $0.text("integrity_check") }
    }

    /// A consistent snapshot for several reads: nothing committed by another
    /// connection meanwhile is seen inside `body`.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(.deferred) {
            _ = try database.scalarInt("SELECT 1 FROM images LIMIT 1")  // starts the snapshot now
            return try body()
        }
    }
}

extension Date {
    /// Milliseconds since 1970 UTC, how the catalogue stores times.
    var catalogueMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(catalogueMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(catalogueMilliseconds) / 1000)
    }
}
