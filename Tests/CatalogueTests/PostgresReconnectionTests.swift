import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// A connection the server ended while it stood idle (a restart, `pg_terminate_backend`, an idle
/// timeout) is made again before the next statement: a long-lived process (`serve`'s threads,
/// `import --watch`) went on failing on a dead connection until it was started again.
@Suite(.enabled(if: TestPostgres.isInstalled, "PostgreSQL is not installed (make deps installs it)"))
struct PostgresReconnectionTests {
    /// Ends every other session on `url`'s database, as a server's restart does, and waits
    /// until the server has seen them go.
    static func endSessions(_ url: String) throws {
        let database = String(url.split(separator: "/").last!)
        let postgres = try TestPostgres.shared()
        try postgres.psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          + "WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        for _ in 0..<100 {
            let left = try postgres.psql("postgres", "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'")
            if left.trimmingCharacters(in: .whitespacesAndNewlines) == "0" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    @Test func aWriterWhoseSessionWasEndedReadsAndWritesOnItsNextUse() throws {
        let url = try TestPostgres.shared().newDatabase()
        let store = try CatalogueStorage.open(url, access: .create)
        let first = try store.registerModel(Synthetic.model(1), at: Date())
        let version = try store.version
        let nothing = Synthetic.digest(7)
        #expect(try !store.containsImage(sha256: nothing))  // a statement the session prepares
        try Self.endSessions(url)
        #expect(try store.version == version)
        #expect(try !store.containsImage(sha256: nothing))  // prepared again in the new session
        let second = try store.registerModel(Synthetic.model(2), at: Date())
        #expect(second != first)
        try Self.endSessions(url)
        #expect(try store.registerModel(Synthetic.model(2), at: Date()) == second)
    }

    /// A session ended in the middle of a read (between a cursor's batches) cannot be made
    /// again: the read fails, in one line that gives the server's reason. It gave libpq's whole
    /// text ("FATAL:  terminating connection ...; server closed the connection unexpectedly;
    /// This probably means the server terminated abnormally; ..."), with the SQL of the
    /// statement cut off and a caret when the server named a position, and said the same
    /// command run again would go on from there, which a read or a copy does not.
    @Test func aSessionEndedMidReadFailsInOneLineGivingTheServersReason() throws {
        let filled = try CorrectionTests.Filled(.postgresql, images: 3)
        defer { filled.opened.directory.remove() }
        var seen = 0
        let error = #expect(throws: CatalogueError.self) {
            try filled.catalogue.forEachCurrentClassification(ClassificationQuery()) { _ in
                seen += 1
                if seen == 1 { try Self.endSessions(filled.opened.location) }
            }
        }
        let said = try #require(error).description
        #expect(seen == 3, "the first batch is read whole before the next is asked for")
        #expect(said == "\(filled.opened.location): PostgreSQL: the connection to the server was lost "
                + "(terminating connection due to administrator command); what was committed before it stays", "\(said)")
    }

    @Test func aReadOnlyConnectionMadeAgainStillRefusesWrites() throws {
        let url = try TestPostgres.shared().newDatabase()
        let version = try CatalogueStorage.open(url, access: .create).version
        let reader = try CatalogueStorage.open(url, access: .readOnly)
        try Self.endSessions(url)
        #expect(try reader.version == version)
        #expect(throws: CatalogueError.self) { try reader.registerModel(Synthetic.model(1), at: Date()) }
    }
}
