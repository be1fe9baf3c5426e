import CPostgreSQL
import Foundation

/// One connection to a PostgreSQL server through libpq, for one thread at a
/// time. Every value is a bound parameter (`PostgresValue`); every failure is
/// one `CatalogueError.server` naming the server as `PostgresLocation` names
/// it, never with its password. Results come as text, bytes unescaped by libpq.
final class PostgresConnection {
    let location: PostgresLocation
    private let handle: OpaquePointer
    /// Transactions asked for inside one already open join it: a use case that
    /// reads inside a run's batch sees and writes the batch's own state.
    private var depth = 0
    var inTransaction: Bool { depth > 0 }
    /// Whether this connection refuses writes (`default_transaction_read_only`, set by the
    /// opening of a read-only catalogue): a session setting, set again on a new connection.
    var refusesWrites = false
    /// Whether the catalogue's triggers fire on this connection: not when `session_replication_role`
    /// is `replica`, which only a superuser sets (so it cannot be set back here; see `PostgresCatalogue.init`).
    private(set) var firesTriggers = true
    /// Whether the location itself gave the search path (`?options=-csearch_path%3DNAME`, or
    /// `PGOPTIONS`), rather than the database's or role's settings: a schema chosen for this
    /// catalogue, where a new one is made even when another schema holds one (`PostgresMigrator.version`).
    private(set) var searchPathNamed = false
    /// The statements prepared on this connection (`queryPrepared`), by their SQL and types.
    private var prepared: [String: String] = [:]
    /// Each statement's text as PostgreSQL takes it, by the text as written (with names). A
    /// multi-row insert's text is long and differs with its number of rows, so the texts kept
    /// are bounded (`numberedTextsKept`): a long import holds a few shapes, not every one it met.
    private var numbered: [String: PostgresNumberedSQL] = [:]
    private static let numberedTextsKept = 64

    /// Writers of one catalogue take this advisory lock for each transaction, so that
    /// several machines' imports write one batch at a time, as SQLite's one writer does:
    /// two batches updating the per-label counts in opposite orders would otherwise deadlock.
    static let writeLock: Int64 = 0x5752_4442  // "WRDB"

    /// Connects, asking for UTF-8 in the connection's start-up rather than by a statement after it.
    init(_ location: PostgresLocation) throws {
        var problem: UnsafePointer<CChar>?
        guard wardrobe_load_libpq(&problem) == 1 else {
            throw CatalogueError.server(location: location.displayName, detail: problem.map { String(cString: $0) } ?? "cannot load libpq")
        }
        // The connection string, expanded (URL or keyword form), then the encoding, which overrides one it gives.
        let keywords = ["dbname", "client_encoding"], values = [location.connectionString, "UTF8"]
        let opened = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection = opened else {
            throw CatalogueError.server(location: location.displayName, detail: "libpq could not allocate a connection")
        }
        handle = connection
        self.location = location
        guard PQstatus(connection) == CONNECTION_OK else {
            throw Self.connectFailure(PQerrorMessage(connection), location: location.displayName)
        }
        // Notices ("relation already exists, skipping") are the server's chatter, not the tool's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try pinSettings()
    }

    /// The settings this connection's reading of values and its statements depend on, which
    /// a database's or role's owner may set otherwise (`ALTER DATABASE ... SET`): a float8 as
    /// text with every digit (`extra_float_digits` 0 or below rounded a confidence of
    /// 0.8697611689567566 to 0.9), dates, intervals, zones and bytes in one form, strings as
    /// the standard has them; READ COMMITTED, which the write lock and the lease takes are
    /// written for; and no timeout: writers wait for each other's batches by design, and a
    /// statement or wait cut off ended a command part-way. And the names: the catalogue is in
    /// the first schema of the search path that holds one (else one is made in the first that
    /// exists), and that schema alone is searched, so a table or function of another schema
    /// named like one of wardrobe's (`images`, `rows_counted`) never stands in for it, in a
    /// statement or a trigger. One round trip when the connection starts, not libpq's
    /// `options`: those cannot ask for the current schema, and a pooler (PgBouncer) refuses a
    /// connection that gives them.
    private static func pinning(refusingWrites: Bool) -> String { """
        SET statement_timeout = 0;
        SELECT set_config('search_path', coalesce((SELECT quote_ident(name) FROM unnest(current_schemas(false))
                   WITH ORDINALITY AS path (name, place) WHERE to_regclass(quote_ident(name) || '.wardrobe_migrations')
                   IS NOT NULL ORDER BY place LIMIT 1), quote_ident(current_schema()), ''), false),
               set_config('extra_float_digits', '3', false), set_config('DateStyle', 'ISO, MDY', false),
               set_config('IntervalStyle', 'postgres', false), set_config('TimeZone', 'UTC', false),
               set_config('bytea_output', 'hex', false), set_config('standard_conforming_strings', 'on', false),
               set_config('default_transaction_isolation', 'read committed', false),
               set_config('lock_timeout', '0', false),
               set_config('idle_in_transaction_session_timeout', '0', false),
               current_setting('session_replication_role') = 'origin' AS fires_triggers,
               given.source = 'client' AS search_path_named
               \(refusingWrites ? ", set_config('default_transaction_read_only', 'on', false)" : "")
        FROM (SELECT source FROM pg_settings WHERE name = 'search_path') AS given
        """
    }

    /// Sets `pinning` on this session (again after `PQreset`), with the read-only setting when it refuses writes.
    /// The owner's `statement_timeout` still holds for the first statement, the `SET` of none: its timer may cut
    /// that off, or fire as it ends and cut off the next one, the `SELECT` (57014, with a timeout of a few
    /// milliseconds on a busy machine). Both are one implicit transaction, undone together, and sent again.
    private func pinSettings() throws {
        let sql = Self.pinning(refusingWrites: refusesWrites)
        var attempts = 0
        var result = PQexec(handle, sql)
        while let cut = result, PQresultStatus(cut) == PGRES_FATAL_ERROR, attempts < 3,
              PQresultErrorField(cut, Int32(UInt8(ascii: "C"))).map({ String(cString: $0) }) == "57014" {
            PQclear(cut)
            attempts += 1
            result = PQexec(handle, sql)
        }
        guard let result else { throw failure(result: nil) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw failure(result: result) }
        func flag(_ name: String) -> Bool { PQgetvalue(result, 0, PQfnumber(result, name)).map { String(cString: $0) } == "t" }
        firesTriggers = flag("fires_triggers")
        searchPathNamed = flag("search_path_named")
    }

    /// `strings` as the NULL-terminated array of C strings libpq takes, valid inside `body`.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }

    deinit { PQfinish(handle) }

    /// The database's encoding, as the server reported it when the connection started (no
    /// statement asks it).
    var serverEncoding: String {
        PQparameterStatus(handle, "server_encoding").map { String(cString: $0) } ?? "unknown"
    }

    /// Runs one statement with each of `arguments` bound to the parameter of its name
    /// (`:image`); the rows it returns.
    @discardableResult
    func query(_ sql: String, _ arguments: PostgresArguments = [:]) throws -> PostgresResult {
        guard let result = try query(sql, arguments, unless: nil) else { throw failure(result: nil) }
        return result
    }

    /// Runs one statement whose parameters are written `$1`, `$2`... as `parameters` gave them.
    @discardableResult
    func query(numbered sql: String, _ parameters: PostgresParameters) throws -> PostgresResult {
        try reconnectIfDropped()
        let result: OpaquePointer? = parameters.withPointers { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), parameters.types, pointers, parameters.lengths,
                         parameters.formats, 0)
        }
        guard let checked = try checked(result, unless: nil) else { throw failure(result: nil) }
        return checked
    }

    /// `query`, or nil when the server refuses the statement with SQLSTATE `state`: an answer
    /// the caller expects (42P01, undefined_table), not a failure.
    func query(_ named: String, _ arguments: PostgresArguments = [:], unless state: String?) throws -> PostgresResult? {
        try reconnectIfDropped()
        let (sql, parameters) = try numberedParameters(named, arguments)
        let types = parameters.map { $0?.type ?? 0 }
        let formats = parameters.map { $0?.format ?? 0 }
        let lengths = parameters.map { Int32($0?.bytes.count ?? 0) }
        let result: OpaquePointer? = withParameterPointers(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), types, pointers, lengths, formats, 0)
        }
        return try checked(result, unless: state)
    }

    /// `query` through a statement this connection prepares the first time it meets `sql` (with
    /// these values' types) and keeps: the server parses and plans it once, not at every call.
    /// For the statements a run sends again and again (a worker's look per file, a take of leases).
    func queryPrepared(_ named: String, _ arguments: PostgresArguments) throws -> PostgresResult {
        try reconnectIfDropped()
        let (sql, parameters) = try numberedParameters(named, arguments)
        let types = parameters.map { $0?.type ?? 0 }
        let key = sql + "\u{0}" + types.map(String.init).joined(separator: ",")
        let name: String
        if let known = prepared[key] {
            name = known
        } else {
            name = "wardrobe_\(prepared.count + 1)"
            let made = PQprepare(handle, name, sql, Int32(parameters.count), types)
            guard let made else { throw failure(result: nil) }
            defer { PQclear(made) }
            guard PQresultStatus(made) == PGRES_COMMAND_OK else { throw failure(result: made) }
            prepared[key] = name
        }
        let formats = parameters.map { $0?.format ?? 0 }
        let lengths = parameters.map { Int32($0?.bytes.count ?? 0) }
        let result: OpaquePointer? = withParameterPointers(parameters) { pointers in
            PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 0)
        }
        guard let answer = try checked(result, unless: nil) else { throw failure(result: nil) }
        return answer
    }

    /// `named` as PostgreSQL takes it (`$n` for each name), and the values in that order.
    private func numberedParameters(_ named: String, _ arguments: PostgresArguments) throws -> (String, [PostgresValue?]) {
        let statement: PostgresNumberedSQL
        if let known = numbered[named] {
            statement = known
        } else {
            statement = PostgresNumberedSQL(named)
            if numbered.count >= Self.numberedTextsKept { numbered.removeAll(keepingCapacity: true) }
            numbered[named] = statement
        }
        return (statement.sql, try statement.values(arguments).map { $0?.postgresValue })
    }

    /// A statement's result, its failure thrown, or nil when it failed with SQLSTATE `state`.
    private func checked(_ result: OpaquePointer?, unless state: String?) throws -> PostgresResult? {
        guard let result else { throw failure(result: nil) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            defer { PQclear(result) }
            if let state, let found = PQresultErrorField(result, Int32(UInt8(ascii: "C"))), String(cString: found) == state {
                return nil
            }
            throw failure(result: result)
        }
        return PostgresResult(result, location: location.displayName)
    }

    /// Runs several statements, with no parameters (a schema step).
    func executeScript(_ sql: String) throws {
        try reconnectIfDropped()
        guard let result = PQexec(handle, sql) else { throw failure(result: nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY else {
            throw failure(result: result)
        }
    }

    /// Runs `COPY ... FROM STDIN` (`sql`) with `data` as its rows in COPY's text format:
    /// many rows in one round trip, where an INSERT takes one each.
    func copyIn(_ sql: String, data: [UInt8]) throws {
        try reconnectIfDropped()
        guard let started = PQexec(handle, sql) else { throw failure(result: nil) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            defer { PQclear(started) }
            throw failure(result: started)
        }
        PQclear(started)
        let sent = data.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                PQputCopyData(handle, $0, Int32(bytes.count))
            }
        }
        let ended = PQputCopyEnd(handle, sent == 1 ? nil : "the rows could not be sent")
        // The COPY's own result, then none: read until libpq says there is no more.
        var problem: OpaquePointer?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, problem == nil { problem = result } else { PQclear(result) }
        }
        if let problem {
            defer { PQclear(problem) }
            throw failure(result: problem)
        }
        guard sent == 1, ended == 1 else { throw failure(result: nil) }
    }

    /// Runs one statement; how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: PostgresArguments = [:]) throws -> Int {
        try query(sql, arguments).changedRows
    }

    /// The first column of the first row as an integer, nil when no row or NULL.
    func scalarInt(_ sql: String, _ arguments: PostgresArguments = [:]) throws -> Int64? {
        let result = try query(sql, arguments)
        guard result.count > 0 else { return nil }
        return result.row(0).optionalInt64(0)
    }

    /// Makes the connection again when the server ended it while it stood idle, before a
    /// statement is sent on it: a server restarted, an administrator's `pg_terminate_backend`,
    /// an idle timeout. Without this a long-lived process (`serve`'s threads, `import --watch`)
    /// kept a dead connection, and every later statement on it failed until the process was
    /// started again. Only outside a transaction, and only before sending: a statement is
    /// never sent twice. The server's goodbye (a FATAL message, then the socket's end) is read
    /// without waiting; a connection that cannot be made again fails its statement as before.
    private func reconnectIfDropped() throws {
        guard depth == 0 else { return }
        // Nothing is due on an idle connection: what is there to read is a goodbye or the end.
        for _ in 0..<4 where PQstatus(handle) == CONNECTION_OK {
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&socket, 1, 0) > 0 else { return }
            if PQconsumeInput(handle) == 0 { break }
        }
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        prepared.removeAll()  // a new session has none of the old one's statements
        guard PQstatus(handle) == CONNECTION_OK else { return }
        try pinSettings()
    }

    /// Runs `body` in one transaction: commits when it returns, rolls back and
    /// rethrows when it throws. A `snapshot` is read-only and sees one state of the
    /// catalogue throughout; otherwise the catalogue's write lock is taken first.
    func transaction<T>(snapshot: Bool = false, _ body: () throws -> T) throws -> T {
        if depth > 0 {
            depth += 1
            defer { depth -= 1 }
            return try body()
        }
        try execute(snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        depth = 1
        defer { depth = 0 }
        do {
            if !snapshot { try execute("SELECT pg_advisory_xact_lock(:write_lock)",
                                       [":write_lock": PostgresConnection.writeLock]) }
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // A connection that went away has no transaction left to roll back.
            if PQstatus(handle) == CONNECTION_OK { PQclear(PQexec(handle, "ROLLBACK")) }
            throw error
        }
    }

    /// libpq's message, or the server's with its SQLSTATE, in one line; a connection lost, a
    /// right the role lacks, a database that takes no writes and a statement cancelled each as
    /// a kind of its own. The statement is not part of it: the line is read by a person, to whom the
    /// statement, and the "LINE 1: ..." and caret the server adds, say nothing the reason does not.
    private func failure(result: OpaquePointer?) -> CatalogueError {
        if PQstatus(handle) != CONNECTION_OK {
            let message = PQerrorMessage(handle).map { String(cString: $0) } ?? ""
            return .serverUnreachable(location: location.displayName,
                                      detail: "the connection to the server was lost (\(PostgresConnection.lostReason(message))); "
                                        + "what was committed before it stays")
        }
        func field(_ code: Character) -> String? {
            guard let result, let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            let text = String(cString: value).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return text.isEmpty ? nil : text
        }
        let state = field("C")
        switch state {
        case "42501":
            return .serverDenied(location: location.displayName, reason: field("M") ?? "permission denied")
        case "25006":
            return .serverReadOnly(location: location.displayName)
        case "57014":
            return .serverCancelled(location: location.displayName, reason: field("M") ?? "canceling statement")
        default:
            break
        }
        // The server's reason, its detail and hint; not its "LINE 1:", caret or CONTEXT (which quote SQL).
        var message = [field("M"), field("D"), field("H")].compactMap { $0 }.joined(separator: "; ")
        if message.isEmpty { message = PostgresConnection.oneLine(PQerrorMessage(handle)) }
        if message.isEmpty { message = "the server gave no reason" }
        if let state { message += " (SQLSTATE \(state))" }
        return .server(location: location.displayName, detail: message)
    }

    /// Why a connection was lost, in a few words: the server's own reason when it gave one
    /// ("FATAL:  terminating connection due to administrator command"), else libpq's first
    /// line. libpq adds its guess about the cause over two more lines ("This probably means the
    /// server terminated abnormally"), and a statement cut off may bring its SQL and a caret
    /// ("LINE 1: ...", "^"): none of it says more than the reason, and the SQL is not the
    /// person's.
    static func lostReason(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        for line in lines {
            for severity in ["FATAL:", "PANIC:", "ERROR:"] where line.hasPrefix(severity) {
                let reason = line.dropFirst(severity.count).trimmingCharacters(in: .whitespaces)
                if !reason.isEmpty { return reason }
            }
        }
        guard let first = lines.first(where: { !$0.isEmpty }) else { return "no reason given" }
        return first == "server closed the connection unexpectedly" ? "the server closed it without a reason" : first
    }

    /// Why a connection could not be made. A server or role that takes no more connections
    /// (`CONNECTION LIMIT`, `max_connections`) is a kind of its own, with the server's reason
    /// ("too many connections for role ..."): libpq's whole line read as another session being
    /// in the way, where a writing command holds two at once and serve one a thread.
    static func connectFailure(_ message: UnsafePointer<CChar>?, location: String) -> CatalogueError {
        let text = message.map { String(cString: $0) } ?? ""
        let full = ["too many connections", "too many clients", "connection slots are reserved"]
        guard full.contains(where: text.contains) else {
            return .serverUnreachable(location: location, detail: "cannot connect: " + oneLine(message))
        }
        // libpq's "connection to server on socket ... failed: FATAL:  too many connections for role ..."
        let reason = text.range(of: "FATAL:").map { lostReason(String(text[$0.lowerBound...])) } ?? lostReason(text)
        return .serverFull(location: location, reason: reason)
    }

    /// libpq's messages end in a newline and may run over several lines ("ERROR: ...\nDETAIL: ...").
    static func oneLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }

    /// Pointers to each parameter's bytes (nil for NULL), valid inside `body`.
    private func withParameterPointers<T>(_ parameters: [PostgresValue?],
                                          _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        // One buffer for all: each parameter's bytes at its offset.
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        for parameter in parameters {
            guard let parameter else { offsets.append(nil); continue }
            offsets.append(buffer.count)
            buffer += parameter.bytes
        }
        buffer.append(0)  // a valid address even when every parameter is empty
        return buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            return body(offsets.map { $0.map { base + $0 } })
        }
    }
}
