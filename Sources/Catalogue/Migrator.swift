import CSQLite

/// Applies the pending migrations in order, all in one exclusive transaction
/// together with the `PRAGMA user_version` bump and the caller's check of what
/// the file is: a catalogue is always at exactly one version, never between
/// two, and no other process sees or judges it half-made.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    /// The migrations built into this binary from `migrations/*.sql`.
    public static let embedded = Migrator(migrations: embeddedMigrations)

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The version a catalogue has once every migration is applied.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The version recorded in the file (0 for a new one).
    public static func version(of database: Database) throws -> Int {
        Int(try database.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// Brings the database up to `target` (default: latest). Refuses a
    /// database newer than this binary without writing to it.
    /// `check` runs first inside the transaction, once the lock is held (it
    /// refuses a file that is not a catalogue).
    public func migrate(_ database: Database, upTo target: Int? = nil, check: () throws -> Void = {}) throws {
        let target = target ?? latestVersion
        precondition(target <= latestVersion, "no migration \(target)")
        try database.transaction(.exclusive) {
            try check()
            // Read under the lock: another process may have migrated while we waited.
            let found = try Migrator.version(of: database)
            if found > latestVersion {
                throw CatalogueError.newerCatalogue(path: database.path, version: found, supported: latestVersion)
            }
            for migration in migrations where migration.version > found && migration.version <= target {
                do {
                    try database.executeScript(migration.sql)
                } catch CatalogueError.sqlite(let failure) {
                    throw CatalogueError.migrationFailed(version: migration.version, name: migration.name, failure: failure)
                }
                try database.executeScript("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
