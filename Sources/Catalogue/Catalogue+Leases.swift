import Files
import Foundation

/// Leases on files, for several importers on one folder (migration 23). SQLite has no row
/// locks: each take is one IMMEDIATE transaction, which holds the file's one write lock for
/// the few statements it runs, so processes on one file take turns and never take a file
/// twice; what they split and skip is the same as on a server.
extension Catalogue {
    public func leaseFiles(_ files: [SeenFile], owner: String, until: Date, at date: Date) throws -> [Bool] {
        guard !files.isEmpty else { return [] }
        return try database.transaction {
            let statement = try database.cachedStatement(FileLease.take)
            return try files.map { file in
                defer { statement.reset() }
                try statement.bind(machine, to: ":machine")
                try statement.bind(PathName.display(file.path), to: ":path")
                try statement.bind(file.size, to: ":size")
                try statement.bind(file.modificationTimeNanoseconds, to: ":mtime_ns")
                try statement.bind(owner, to: ":owner")
                try statement.bind(until.catalogueMilliseconds, to: ":until")
                try statement.bind(date.catalogueMilliseconds, to: ":now")
                return try statement.step()
            }
        }
    }

    public func renewLeases(owner: String, until: Date) throws {
        try database.transaction {
            for table in LeaseTables.all {
                try database.execute("UPDATE \(table) SET expires_at = :until WHERE owner = :owner",
                                     [":until": until.catalogueMilliseconds, ":owner": owner])
            }
        }
    }

    public func releaseLeases(owner: String) throws {
        try database.transaction {
            for table in LeaseTables.all { try database.execute("DELETE FROM \(table) WHERE owner = :owner", [":owner": owner]) }
        }
    }

    public func leaseOwners() throws -> Set<String> {
        Set(try database.rows(LeaseTables.ownersSQL(machine: ":machine"), [":machine": machine]) { $0.text("owner") })
    }
}

/// The tables of leases a process holds (files an import reads, images a reclassification
/// classifies), which its heartbeat renews and its end gives up together.
enum LeaseTables {
    static let all = ["file_leases", "image_leases"]

    /// The holders of leases on this machine's files, and of every image lease (an owner names
    /// its host, so `RunOwner.isGone` judges only this host's).
    static func ownersSQL(machine: String) -> String {
        "SELECT owner FROM file_leases WHERE machine = \(machine) UNION SELECT owner FROM image_leases"
    }
}

/// The statement that takes one file's lease, in SQLite's SQL: a new row, or an expired
/// one taken over; nothing (no row returned) while another holder's lease lasts, or when the
/// file is stored or failing with the size and time it has now.
enum FileLease {
    static let take = """
        INSERT INTO file_leases AS l (machine, path, size, mtime_ns, owner, expires_at)
        SELECT :machine, :path, :size, :mtime_ns, :owner, :until
        WHERE NOT EXISTS (SELECT 1 FROM image_paths
                          WHERE machine = :machine AND path = :path AND size = :size AND mtime_ns = :mtime_ns)
          AND NOT EXISTS (SELECT 1 FROM failing_files
                          WHERE machine = :machine AND path = :path AND size = :size AND mtime_ns = :mtime_ns)
        ON CONFLICT (machine, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
            owner = excluded.owner, expires_at = excluded.expires_at
            WHERE l.expires_at < :now
        RETURNING path
        """
}
