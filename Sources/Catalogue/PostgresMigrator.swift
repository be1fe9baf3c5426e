import Foundation

/// Brings a PostgreSQL catalogue to the latest schema step of
/// `migrations/postgresql`, all pending steps and their records in one
/// transaction (PostgreSQL's DDL is transactional) under the catalogue's
/// write lock: a catalogue is at exactly one step, and two machines opening a
/// new one at once make it once. The steps applied are recorded in
/// `wardrobe_migrations`, which SQLite keeps as `PRAGMA user_version`; that
/// table is also what tells a wardrobe catalogue from another program's database.
struct PostgresMigrator {
    let connection: PostgresConnection

    static let migrations = Migrator.embeddedPostgreSQLMigrations
    static var latestVersion: Int { migrations.last?.version ?? 0 }
    /// SQLSTATE 42P01: the statement names a table that does not exist.
    static let undefinedTable = "42P01"

    /// The latest step applied; 0 for an empty database. A database holding other tables and
    /// no record of steps is another program's, and refused. With `readOnly`, the connection
    /// refuses writes from this statement on (`default_transaction_read_only`), set in the same
    /// round trip: a catalogue's opening asks one question of the server.
    func version(readOnly: Bool = false) throws -> Int {
        let readOnlyFromNow = readOnly ? ", set_config('default_transaction_read_only', 'on', false)" : ""
        // Inside a transaction a refused statement would end it: there the table is looked for first.
        if !connection.inTransaction, let recorded = try connection.query(
            "SELECT coalesce(max(version), 0) AS version\(readOnlyFromNow) FROM wardrobe_migrations", unless: Self.undefinedTable) {
            if readOnly { connection.refusesWrites = true }
            return recorded.row(0).int("version")
        }
        if readOnly {
            try connection.execute("SET default_transaction_read_only = on")
            connection.refusesWrites = true
        }
        // No record of steps: an empty schema, another program's, or none (see `PostgresConnection.pinning`).
        let identity = try connection.query("""
            SELECT to_regclass('wardrobe_migrations') IS NOT NULL AS ours, current_schema() AS schema,
                   (SELECT reset_val FROM pg_settings WHERE name = 'search_path') AS search_path,
                   (SELECT string_agg(tablename, ', ') FROM (SELECT tablename FROM pg_tables
                    WHERE schemaname = current_schema() ORDER BY tablename LIMIT 3) AS t) AS tables,
                   (SELECT string_agg(schemaname, ', ' ORDER BY schemaname) FROM pg_tables
                    WHERE tablename = 'wardrobe_migrations') AS elsewhere,
                   (SELECT string_agg(schemaname, ', ' ORDER BY schemaname) FROM pg_tables
                    WHERE tablename = 'wardrobe_migrations' AND NOT has_schema_privilege(schemaname, 'USAGE')) AS barred
            """).row(0)
        if identity.bool("ours") {  // made since the first question, by another process
            return Int(try connection.scalarInt("SELECT coalesce(max(version), 0) FROM wardrobe_migrations") ?? 0)
        }
        let location = connection.location.displayName
        let searchPath = identity.text("search_path")
        let elsewhere = identity.optionalText("elsewhere")
        let other = elsewhere.map { "; this database holds one in schema \($0)" } ?? ""
        let named = "(?options=-csearch_path%3D\(elsewhere.map { String($0.split(separator: ",")[0]) } ?? "NAME"))"
        // A schema the role may not use is left out of its search path, as if it were not there.
        if let barred = identity.optionalText("barred") {
            throw CatalogueError.serverDenied(location: location, reason: "permission denied for schema \(barred), "
                                              + "which holds a catalogue")
        }
        guard let schema = identity.optionalText("schema") else {
            throw CatalogueError.server(location: location, detail: "there is no schema to find or make the catalogue "
                + "in: the search_path the connection starts with ('\(searchPath)') names none that exists\(other); "
                + "nothing was written. Name the schema in the location \(named) or make it")
        }
        if let tables = identity.optionalText("tables") {
            throw CatalogueError.foreignDatabase(path: location, detail: "tables \(tables)"
                + (elsewhere == nil ? "" : " in schema \(schema)\(other)"))
        }
        // A search path changed since the catalogue was made: a new one beside it would look like a loss.
        if elsewhere != nil, !connection.searchPathNamed {
            throw CatalogueError.server(location: location, detail: "no catalogue in schema \(schema), the first of the "
                + "search_path the connection starts with ('\(searchPath)'), where the catalogue is looked for"
                + "\(other); nothing was written. Name its schema in the location \(named)")
        }
        return 0
    }

    /// Applies every pending step; the version is read again under the lock, as another
    /// process may have migrated while this one waited.
    func migrate() throws {
        let location = connection.location.displayName
        try connection.transaction {
            let found = try version()
            if found > Self.latestVersion {
                throw CatalogueError.newerCatalogue(path: location, version: found, supported: Self.latestVersion)
            }
            try connection.executeScript("""
                CREATE TABLE IF NOT EXISTS wardrobe_migrations (
                    version    bigint PRIMARY KEY,
                    name       text   NOT NULL,
                    applied_at bigint NOT NULL)
                """)
            for migration in Self.migrations where migration.version > found {
                do {
                    try connection.executeScript(migration.sql)
                } catch CatalogueError.server(_, let detail) {
                    throw CatalogueError.server(location: location, detail: "schema step \(migration.version) "
                        + "(\(migration.name)) failed, the catalogue stays at step \(found): \(detail)")
                }
                try connection.execute("INSERT INTO wardrobe_migrations (version, name, applied_at) VALUES (:version, :name, :date)",
                                       [":version": migration.version, ":name": migration.name, ":date": Date().catalogueMilliseconds])
            }
        }
    }
}
