import Foundation

/// The wardrobe catalogue in a PostgreSQL database, for a catalogue several
/// machines share: the second `CatalogueStore`, with the tables, meaning and
/// schema steps of the SQLite catalogue (`migrations/postgresql`). One
/// instance is one connection, for one thread at a time; a run's workers and
/// a server's threads open their own (`CatalogueStorage.reader`).
///
/// Each batch of a run is one transaction, under an advisory lock that makes
/// the writers of all machines take turns batch by batch (see
/// `PostgresConnection.writeLock`); readers are never held up. If the server
/// goes away, the batch in flight is rolled back by the server and the ones
/// before it stay: an import run again goes on from there.
public final class PostgresCatalogue {
    let connection: PostgresConnection
    /// The server and database, as messages name them (never with a password).
    public var path: String { connection.location.displayName }
    public var location: String { connection.location.connectionString }
    /// The machine this connection records paths for and judges the paths of (`Machine`).
    public let machine: String
    public private(set) var abandonedRuns: [RunRecord] = []

    /// Connects and, unless `readOnly`, brings the schema up to date (made in an empty database
    /// with `create`). A database of another program, or a catalogue of a newer wardrobe, is
    /// refused before anything is written.
    public init(location: PostgresLocation, access: CatalogueStorage.Access, machine: String = Machine.current) throws {
        connection = try PostgresConnection(location)
        self.machine = machine
        let migrator = PostgresMigrator(connection: connection)
        let found = try migrator.version(readOnly: access == .readOnly)
        if found == 0, access != .create { throw CatalogueError.fileNotFound(path: path) }
        if access != .readOnly { try Self.requireUTF8(connection, new: found == 0) }
        if found > PostgresMigrator.latestVersion {
            throw CatalogueError.newerCatalogue(path: path, version: found, supported: PostgresMigrator.latestVersion)
        }
        guard access != .readOnly else {
            if found < PostgresMigrator.latestVersion {
                throw CatalogueError.needsMigration(path: path, version: found, supported: PostgresMigrator.latestVersion)
            }
            return
        }
        // With the triggers off a label would not reach the image, and the kept counts would go wrong.
        guard connection.firesTriggers else {
            throw CatalogueError.server(location: path, detail: "session_replication_role is set to 'replica' for this "
                + "database or role, which turns the catalogue's triggers off, so nothing was written (list, show and "
                + "export still read it); have the owner reset it (ALTER DATABASE NAME RESET session_replication_role)")
        }
        if found < PostgresMigrator.latestVersion { try migrator.migrate() }
        abandonedRuns = try markAbandonedRuns()
        // Paths and failing files recorded before machines had names become this machine's
        // (see `Catalogue.takeUnnamedPaths`).
        for table in Catalogue.machineTables
        where try connection.scalarInt("SELECT 1 FROM \(table) WHERE machine = '' LIMIT 1") != nil {
            try connection.execute("UPDATE \(table) SET machine = :machine WHERE machine = ''", [":machine": machine])
        }
    }

    /// A catalogue is made and written only in a database whose encoding is UTF-8: in any other,
    /// a file name it cannot spell (`кофта.jpg` in LATIN1) failed the whole import at that file,
    /// with a message naming no file. One made before this rule can still be read and copied
    /// into a UTF-8 database. (`SQL_ASCII` would take any bytes, but does not know them as
    /// text: PostgreSQL's own advice is not to keep text in it.)
    private static func requireUTF8(_ connection: PostgresConnection, new: Bool) throws {
        let encoding = connection.serverEncoding
        guard encoding != "UTF8" else { return }
        let location = connection.location.displayName
        let problem = "the database's encoding is \(encoding), which cannot hold every file name"
        if new {
            throw CatalogueError.cannotCreate(path: location, reason: problem + "; make the database with UTF-8 "
                                              + "(createdb --encoding UTF8 --template template0 NAME) and name that one")
        }
        throw CatalogueError.notOnThisEngine(location: location, detail: problem + "; nothing was written. "
                                             + "list, show and export still read it; 'wardrobe copy' copies it into "
                                             + "a database made with UTF-8")
    }

    /// The schema step recorded in the database.
    public var version: Int {
        get throws { try PostgresMigrator(connection: connection).version() }
    }

    /// A consistent snapshot for several reads (REPEATABLE READ).
    public func read<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(snapshot: true, body)
    }

    /// The rows of `sql`, each made into a value by `body`.
    func rows<T>(_ sql: String, _ arguments: PostgresArguments = [:], _ body: (PostgresRow) throws -> T) throws -> [T] {
        try connection.query(sql, arguments).rows.map(body)
    }

    /// The rows of `sql`, whose parameters are written `$1`, `$2`... as `parameters` gave them.
    func rows<T>(numbered sql: String, _ parameters: PostgresParameters, _ body: (PostgresRow) throws -> T) throws -> [T] {
        try connection.query(numbered: sql, parameters).rows.map(body)
    }

    /// `rows`, through a statement prepared once on this connection (`queryPrepared`): for the
    /// statements a run sends again and again.
    func preparedRows<T>(_ sql: String, _ arguments: PostgresArguments, _ body: (PostgresRow) throws -> T) throws -> [T] {
        try connection.queryPrepared(sql, arguments).rows.map(body)
    }

    /// The records `sql` returns, each read by `Columns`: the reader of SQLite's catalogue too.
    func records<Columns: RecordColumns>(_ sql: String, _ arguments: PostgresArguments = [:],
                                         as columns: Columns.Type) throws -> [Columns.Record] {
        let result = try connection.query(sql, arguments)
        guard result.count > 0 else { return [] }
        let reader = Columns(result.row(0))
        return try result.rows.map { try reader.record($0) }
    }

    /// Calls `body` for each row of `sql` with its record as `Columns` reads it (see `forEachRow`).
    func forEachRecord<Columns: RecordColumns>(_ sql: String, _ arguments: PostgresArguments = [:], atMost limit: Int? = nil,
                                               as columns: Columns.Type,
                                               _ body: (Columns.Record, PostgresRow) throws -> Void) throws {
        var reader: Columns?
        try forEachRow(sql, arguments, atMost: limit) { row in
            let found = reader ?? Columns(row)
            reader = found
            try body(try found.record(row), row)
        }
    }

    /// Calls `body` for each row of `sql`, a few hundred rows in memory at a time through a
    /// cursor (exports of any size), inside one snapshot. `body` may read, not write. When
    /// `sql` returns `atMost` a batch's rows (a LIMIT), it runs as one statement, which is its
    /// own snapshot: one round trip to the server where the cursor's transaction took six.
    func forEachRow(_ sql: String, _ arguments: PostgresArguments = [:], atMost limit: Int? = nil,
                    _ body: (PostgresRow) throws -> Void) throws {
        if let limit, limit <= Self.rowsPerFetch {
            for row in try connection.query(sql, arguments).rows { try body(row) }
            return
        }
        try connection.transaction(snapshot: true) {
            try connection.query("DECLARE wardrobe_rows NO SCROLL CURSOR FOR " + sql, arguments)
            defer { _ = try? connection.query("CLOSE wardrobe_rows") }
            while true {
                let batch = try connection.query("FETCH \(Self.rowsPerFetch) FROM wardrobe_rows")
                guard batch.count > 0 else { return }
                for row in batch.rows { try body(row) }
            }
        }
    }

    /// Rows a cursor hands over per round trip.
    static let rowsPerFetch = 500

    /// Copies of a PostgreSQL catalogue are the server's business.
    public func backup(to path: String, shouldStop: @escaping @Sendable () -> Bool) throws -> BackupReport {
        throw CatalogueError.notOnThisEngine(
            location: self.path, detail: "backup copies an SQLite file; for a PostgreSQL catalogue use the server's own "
                + "tools: pg_dump --format=custom --file=\(path) '\(self.path)' (restore with pg_restore)")
    }
}
