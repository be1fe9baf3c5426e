import Files
import Foundation

/// Leases on files (see `Catalogue+Leases`), a take in one statement. Two processes that
/// want one file meet at its row: the second waits for the first's statement, which is
/// its own transaction of a few rows, then finds the lease held and passes the file over.
/// Rows are taken in path order, so that two takes never wait for each other in a circle.
extension PostgresCatalogue {
    public func leaseFiles(_ files: [SeenFile], owner: String, until: Date, at date: Date) throws -> [Bool] {
        guard !files.isEmpty else { return [] }
        var arguments: PostgresArguments = [:]
        let here = arguments.add(machine, as: "machine"), holder = arguments.add(owner, as: "owner")
        let expires = arguments.add(until.catalogueMilliseconds, as: "until"), now = arguments.add(date.catalogueMilliseconds, as: "now")
        let lines = files.map { file in
            "(\(arguments.add(PathName.display(file.path), as: "path"))::text, \(arguments.add(file.size, as: "size"))::bigint, "
                + "\(arguments.add(file.modificationTimeNanoseconds, as: "mtime_ns"))::bigint)"
        }
        // Prepared: takes of a run are mostly of one size, so of one statement.
        let taken = Set(try preparedRows("""
            INSERT INTO file_leases AS l (machine, path, size, mtime_ns, owner, expires_at)
            SELECT \(here), f.path, f.size, f.mtime_ns, \(holder), \(expires)
            FROM (VALUES \(lines.joined(separator: ", "))) AS f(path, size, mtime_ns)
            WHERE NOT EXISTS (SELECT 1 FROM image_paths AS p WHERE p.machine = \(here) AND p.path = f.path
                                                            AND p.size = f.size AND p.mtime_ns = f.mtime_ns)
              AND NOT EXISTS (SELECT 1 FROM failing_files AS g WHERE g.machine = \(here) AND g.path = f.path
                                                                 AND g.size = f.size AND g.mtime_ns = f.mtime_ns)
            ORDER BY f.path
            ON CONFLICT (machine, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                owner = excluded.owner, expires_at = excluded.expires_at
                WHERE l.expires_at < \(now)
            RETURNING l.path
            """, arguments) { $0.text("path") })
        return files.map { taken.contains(PathName.display($0.path)) }
    }

    /// One statement per table, each its own transaction: no write lock is waited for.
    public func renewLeases(owner: String, until: Date) throws {
        for table in LeaseTables.all {
            try connection.execute("UPDATE \(table) SET expires_at = :until WHERE owner = :owner",
                                   [":until": until.catalogueMilliseconds, ":owner": owner])
        }
    }

    public func releaseLeases(owner: String) throws {
        for table in LeaseTables.all { try connection.execute("DELETE FROM \(table) WHERE owner = :owner", [":owner": owner]) }
    }

    public func leaseOwners() throws -> Set<String> {
        Set(try rows(LeaseTables.ownersSQL(machine: ":machine"), [":machine": machine]) { $0.text("owner") })
    }
}
