import Foundation
import Synchronization

/// Where a catalogue is kept and how it is reached: the one place that names an
/// engine. A location is a PostgreSQL database when it is a `postgresql://` or
/// `postgres://` URL or libpq's keyword form (`PostgresLocation`,
/// `PostgresCatalogue`), else an SQLite file (`Catalogue`); what only a file
/// has (its `-wal`, `-shm` and `-journal` beside it, a header to look at, a
/// check of every page) is answered here, so nothing above names it.
public enum CatalogueStorage {
    /// How a command opens its catalogue.
    public enum Access: Sendable, Equatable {
        /// Read and write; made (with its schema) if it is not there.
        case create
        /// Read and write one that exists.
        case readWrite
        /// Read one that exists; every write fails.
        case readOnly
    }

    /// Opens the catalogue at `location` and brings its schema up to date
    /// (see `Catalogue.init`). Counted (`openings(at:)`): a command opens its
    /// catalogue once, and the readers it gives its threads are not openings.
    public static func open(_ location: String, access: Access, lookForDamage: Bool = true,
                            machine: String = Machine.current) throws -> any CatalogueStore {
        openings.withLock { $0[location, default: 0] += 1 }
        if machine == Machine.current, let problem = Machine.problem { throw CatalogueError.invalidArgument(problem) }
        try refuseUnreadableServer(location)
        if let server = PostgresLocation(location) {
            return try PostgresCatalogue(location: server, access: access, machine: machine)
        }
        let mode: Database.Mode = switch access {
        case .create: .create
        case .readWrite: .readWrite
        case .readOnly: .readOnly
        }
        return try Catalogue(path: location, mode: mode, lookForDamage: lookForDamage, machine: machine)
    }

    /// A location meant for a server that libpq cannot read (`postgresql://u@[::1/db`) was
    /// taken for a file's path: "no catalogue there yet", or a file made under a folder named
    /// `postgresql:`. Refused, without the location itself, which may hold a password, but with
    /// libpq's reason, without the values it quotes (`PostgresLocation.unreadable`).
    private static func refuseUnreadableServer(_ location: String) throws {
        guard PostgresLocation.namesServer(location), PostgresLocation(location) == nil else { return }
        let reason = PostgresLocation.unreadable(location).map { " (\($0))" } ?? ""
        throw CatalogueError.invalidArgument(
            "the catalogue's location is meant for PostgreSQL, but libpq cannot read it\(reason); write it as "
            + "postgresql://[user[:password]@]host[:port]/database[?option=value], with %-escapes for "
            + "characters a URL reserves, or as 'host=... dbname=...'")
    }

    /// Another read-only connection to the catalogue a command opened, for one of its
    /// threads (a run's worker, a server's): not an opening. `lookForDamage: false`
    /// when the command's own connection has just looked.
    public static func reader(_ location: String, lookForDamage: Bool,
                              machine: String = Machine.current) throws -> any CatalogueStore {
        if let server = PostgresLocation(location) {
            return try PostgresCatalogue(location: server, access: .readOnly, machine: machine)
        }
        return try Catalogue(path: location, mode: .readOnly, lookForDamage: lookForDamage, machine: machine)
    }

    /// A connection for writing beside the one a command opened, for what its threads write
    /// apart from its run (an importer's leases): not an opening.
    public static func leaseHolder(_ location: String) throws -> any CatalogueStore {
        if let server = PostgresLocation(location) { return try PostgresCatalogue(location: server, access: .readWrite) }
        return try Catalogue(path: location, mode: .readWrite)
    }

    /// Damage any connection of this process met in the catalogue at `location`: once
    /// met, a run stops and nothing more is written.
    public static func damageMet(at location: String) -> CatalogueError? { Database.damageMet(at: location) }

    /// Whether `location` names a database on a server (PostgreSQL), not a file.
    public static func isServer(_ location: String) -> Bool { PostgresLocation(location) != nil }

    /// How messages name the catalogue at `location`: a server's without its password.
    public static func displayName(of location: String) -> String {
        PostgresLocation(location)?.displayName ?? location
    }

    /// How many times this process opened the catalogue at `location`.
    public static func openings(at location: String) -> Int { openings.withLock { $0[location, default: 0] } }
    private static let openings = Mutex<[String: Int]>([:])

    /// The files that make up the catalogue at `location`, each with its role, which no
    /// output may replace.
    public static func files(of location: String) -> [(path: String, role: String)] {
        guard !isServer(location) else { return [] }
        return Catalogue.fileSuffixes.map { suffix in
            (location + suffix, suffix.isEmpty ? "the catalogue" : "the catalogue's \(suffix.dropFirst()) file")
        }
    }

    /// Every page of the catalogue looked at for damage, and every value for what
    /// wardrobe never stores: what is wrong, one line each (empty when nothing is).
    /// The file is opened as a plain read-only database, not as a catalogue, so that
    /// damage where a catalogue's own checks look cannot keep it from being checked.
    /// `digest` is SHA-256, to find kept model copies that are not their model.
    /// `progress` is called every fraction of a second with the seconds spent.
    public static func check(_ location: String, digest: ([UInt8]) -> [UInt8],
                             progress: @escaping (Double) -> Void) throws -> [String] {
        if let server = PostgresLocation(location) {
            return try PostgresCatalogue(location: server, access: .readOnly).strangeValues(digest: digest)
        }
        let database = try Database(path: location, mode: .readOnly)
        do {
            let lines = try database.integrityCheck { seconds in
                progress(seconds)
                return true
            }
            // Values are looked at in a whole file only: on damaged pages their reads would fail.
            guard lines == ["ok"] else { return lines }
            let rewritten = try Catalogue.objectsNotAsWritten(database).map { "the SQL of \($0) is not what wardrobe wrote" }
            return try rewritten + database.strangeValues() + changedModelCopies(in: database, digest: digest)
        } catch CatalogueError.damaged(_, let detail) {
            // So damaged that the check itself cannot go on (its schema, say).
            return ["the check stopped: \(detail)"]
        } catch CatalogueError.notADatabase {
            return ["the file's header is damaged or it is not an SQLite database at all"]
        }
    }

    /// The copies of adopted model files (`model use`) that are not the model their adoption
    /// names, by SHA-256: a command falls back on the copy when the file it came from is gone.
    static func changedModelCopies(in database: Database, digest: ([UInt8]) -> [UInt8]) throws -> [String] {
        let copies = try database.rows(
            "SELECT a.file, m.sha256 FROM model_adoptions a JOIN models m ON m.id = a.model_id WHERE a.file IS NOT NULL"
        ) { row in (file: row.blob("file"), sha256: row.blob("sha256")) }
        let count = copies.filter { digest($0.file) != $0.sha256 }.count
        guard count > 0 else { return [] }
        return ["model adoptions whose kept copy of the model file is not that model: \(count) "
                + "\(count == 1 ? "row" : "rows") (changed by another program)"]
    }
}
