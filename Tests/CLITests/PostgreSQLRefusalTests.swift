import CatalogueFixtures
import Foundation
import Testing

/// What a person reads when the PostgreSQL server refuses a statement or a connection:
/// one line naming the catalogue (its location without a password) and the reason in
/// words, never the SQL that was sent, the server's "LINE 1: ..." and caret, or its "ERROR:".
@Suite(.enabled(if: TestPostgres.isInstalled,
                "PostgreSQL is not installed (make deps installs it): the command line against PostgreSQL is skipped"))
struct PostgreSQLRefusalTests {
    /// The result of a command run on another thread, read once it has ended.
    final class Outcome: @unchecked Sendable {
        private let ended = DispatchSemaphore(value: 0)
        private var result: Result<WardrobeProcess.Result, Error>?

        init(_ arguments: [String]) {
            Thread.detachNewThread { [self] in
                result = Result { try WardrobeProcess.run(arguments) }
                ended.signal()
            }
        }

        func wait() throws -> WardrobeProcess.Result {
            ended.wait()
            return try result!.get()
        }
    }

    /// Asks `sql` (one count) of `database` until it is above 0, as another session's state changes.
    static func await(_ postgres: TestPostgres, _ database: String, _ sql: String) throws -> Bool {
        for _ in 0..<1_000 {
            if let count = Int(try postgres.psql(database, sql).trimmingCharacters(in: .whitespacesAndNewlines)), count > 0 {
                return true
            }
            usleep(20_000)
        }
        return false
    }

    static func expectOneLineWithoutSQL(_ result: WardrobeProcess.Result, _ url: String, saying said: String) {
        #expect(result.status == 1 && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: \(url): PostgreSQL: \(said)"), "\(result.stderr)")
        for sent in ["SELECT", "INSERT", "FROM", "LINE 1", "^", "ERROR:", "while executing", "$1"] {
            #expect(!result.stderr.contains(sent), "\(sent): \(result.stderr)")
        }
    }

    /// A statement cancelled by the server (an administrator's pg_cancel_backend here; a
    /// statement_timeout is the same SQLSTATE 57014) printed "ERROR:  canceling statement due
    /// to user request (SQLSTATE 57014) - while executing `SELECT label FROM corrections ...`".
    @Test func aStatementTheServerCancelsIsOneLineSayingWhatBecameOfTheWork() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "cancelled")
        defer { folder.remove() }
        // Another session holds the corrections table until it is ended, so label waits for it.
        let holder = "BEGIN; LOCK TABLE corrections IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600)"
        Thread.detachNewThread { _ = try? postgres.psql(database, holder) }
        defer {
            _ = try? postgres.psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   + "WHERE datname = '\(database)' AND query LIKE '%pg_sleep(600)%'")
        }
        try #require(try Self.await(postgres, database, """
            SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'corrections' AND l.mode = 'AccessExclusiveLock' AND l.granted
            """))
        let label = Outcome(["label", "--db", url, "Bag", "1"])
        try #require(try Self.await(postgres, "postgres", "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity "
                                    + "WHERE datname = '\(database)' AND wait_event_type = 'Lock'"))
        let result = try label.wait()
        Self.expectOneLineWithoutSQL(result, url, saying: "the server cancelled a statement (canceling statement due "
                                     + "to user request): an administrator or a statement_timeout ended it; what was "
                                     + "committed before it stays, what it was writing was not written; run the command again")
        _ = try postgres.psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              + "WHERE datname = '\(database)' AND query LIKE '%pg_sleep(600)%'")
        #expect(try postgres.psql(database, "SELECT count(*) FROM corrections") == "0\n")
        let again = try WardrobeProcess.run(["label", "--db", url, "Bag", "1"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// Any other refusal (here a column another program renamed) printed the server's whole
    /// text, its "LINE 1: SELECT label FROM ...", a caret and the statement again; the line is
    /// the server's reason (with its detail and hint when it gives them), and its SQLSTATE.
    @Test func anyOtherRefusalIsTheServersReasonWithoutTheStatement() throws {
        let (postgres, url, database, folder) = try TwoPhotos.imported(into: "refused")
        defer { folder.remove() }
        try postgres.psql(database, "ALTER TABLE corrections RENAME COLUMN label TO renamed")
        for arguments in [["history", "1"], ["label", "Bag", "1"]] {
            let result = try WardrobeProcess.run(arguments + ["--db", url])
            Self.expectOneLineWithoutSQL(result, url, saying: "column \"label\" does not exist (SQLSTATE 42703)\n")
        }
    }

    /// serve on a role allowed two connections (the command's own and one more) answered
    /// pages loaded at once 503 "the catalogue's PostgreSQL server cannot be reached now",
    /// as each of its threads opened a connection of its own: they now wait for the one open.
    @Test func serveOnARoleAllowedTwoConnectionsAnswersEveryPage() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("twoconnections")
        let database = String(url.split(separator: "/").last!), role = "twoconnections\(getpid())"
        try postgres.psql("postgres", "CREATE ROLE \(role) LOGIN CONNECTION LIMIT 2; ALTER DATABASE \(database) OWNER TO \(role)")
        let limited = url.replacingOccurrences(of: "postgres@", with: "\(role)@")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 64, height: 48, firstSeed: 1)
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", limited, folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")

        let log = folder.path("serve.log")
        let serve = try ServeProcess(db: limited, readOnly: false, log: log)
        defer { serve.stop() }
        let pages = ["/", "/image/1", "/stats", "/review", "/image/2"]
        // One page after another, each on a connection of its own (which the server's threads take by turns)...
        for page in pages + pages {
            let (head, _) = try KeepAliveHTTP(port: serve.port).answer(page)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(page): \(head)")
        }
        // ...and several at once.
        let answers = Answers(), group = DispatchGroup(), port = serve.port
        for index in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                for page in pages {
                    let head = (try? KeepAliveHTTP(port: port).answer(page).head) ?? "no answer"
                    answers.add("\(index) \(page): \(head.split(whereSeparator: \.isNewline).first ?? "")")
                }
                group.leave()
            }
        }
        group.wait()
        #expect(answers.all.count == 40)
        for answer in answers.all { #expect(answer.hasSuffix("HTTP/1.1 200 OK"), "\(answer)") }
        serve.stop()
        let served = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!served.contains("unavailable") && !served.contains("error"), "\(served)")

        // Allowed only the one serve opens for itself, no page can be read: the page and the log say why.
        try postgres.psql("postgres", "ALTER ROLE \(role) CONNECTION LIMIT 1")
        let alone = try ServeProcess(db: limited, log: log)
        defer { alone.stop() }
        let (head, body) = try KeepAliveHTTP(port: alone.port).answer("/")
        #expect(head.hasPrefix("HTTP/1.1 503"), "\(head)")
        let said = "the catalogue&#39;s PostgreSQL server would not open another connection, as the connection limit of "
            + "its role or database was reached (too many connections for role"
        #expect(body.contains("Unavailable: \(said)"), "\(body)")
        alone.stop()
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains("unavailable: GET /: \(said.replacingOccurrences(of: "&#39;", with: "'")) \"\(role)\")"),
                "\(logged)")
    }

    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }
}
