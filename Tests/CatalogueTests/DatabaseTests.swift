import CSQLite
import Catalogue
import Foundation
import Testing

/// The SQLite wrapper: binding, stepping, errors, transactions.
@Suite struct DatabaseTests {
    func open(_ storage: Storage, in directory: TemporaryDirectory) throws -> Database {
        try Database(path: storage == .memory ? ":memory:" : directory.path("db.sqlite"))
    }

    @Test(arguments: Storage.allCases)
    func valuesRoundTripThroughBoundParameters(storage: Storage) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(storage, in: directory)
        try db.executeScript("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB)")
        let text = "Ankle boot \u{1F462} 'quoted'; DROP TABLE t; --"
        try db.execute("INSERT INTO t VALUES (:i, :r, :s, :b)", [":i": Int64.max, ":r": 0.25, ":s": text, ":b": [UInt8]([0, 1, 255])])
        try db.execute("INSERT INTO t VALUES (:i, :r, :s, :b)", [":i": nil, ":r": nil, ":s": "", ":b": [UInt8]()])
        let rows = try db.rows("SELECT i, r, s, b, b IS NULL FROM t ORDER BY rowid") {
            ($0.isNull(0) ? nil : $0.int64(0), $0.isNull(1) ? nil : $0.double(1), $0.text(2), $0.blob(3), $0.int(4))
        }
        #expect(rows.count == 2)
        #expect(rows[0].0 == Int64.max && rows[0].1 == 0.25 && rows[0].2 == text && rows[0].3 == [0, 1, 255])
        // An empty blob stays an empty blob, not NULL.
        #expect(rows[1].0 == nil && rows[1].1 == nil && rows[1].2 == "" && rows[1].3 == [] && rows[1].4 == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 2)
    }

    @Test func aFailureCarriesCodesMessageAndSQL() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (x INTEGER NOT NULL UNIQUE)")
        try db.execute("INSERT INTO t VALUES (:x)", [":x": 1])
        do {
            try db.execute("INSERT INTO t VALUES (:x)", [":x": 1])
            Issue.record("a duplicate was accepted")
        } catch let CatalogueError.sqlite(failure) {
            #expect(failure.code == SQLITE_CONSTRAINT)
            #expect(failure.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(failure.message == "UNIQUE constraint failed: t.x")
            #expect(failure.sql == "INSERT INTO t VALUES (:x)")
            #expect(failure.description ==
                "in-memory database: SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x - while executing `INSERT INTO t VALUES (:x)`")
        }
        #expect(throws: CatalogueError.self) { try db.prepare("SELEC nonsense") }
        do {
            try db.executeScript("CREATE TABLE u (y); INSERT INTO missing VALUES (1);")
        } catch let CatalogueError.sqlite(failure) {
            #expect(failure.message == "no such table: missing")
            #expect(failure.sql?.contains("INSERT INTO missing") == true)
            #expect(failure.sql?.contains("CREATE TABLE") == false)
        }
    }

    /// Every parameter is bound by its name, and every one is given: a value left out would
    /// silently be NULL, a name the SQL lacks would bind nothing.
    @Test func valuesThatDoNotMatchTheParametersByNameAreRefused() throws {
        let db = try Database(path: ":memory:")
        #expect(throws: CatalogueError.self) { try db.execute("SELECT :a, :b", [":a": 1]) }
        #expect(throws: CatalogueError.self) { try db.execute("SELECT :a, :b", [":a": 1, ":c": 2]) }
        #expect(throws: CatalogueError.self) { try db.execute("SELECT :a", [":a": 1, ":b": 2]) }
        // One name twice, as many values as parameters: :b would be left unbound.
        #expect(throws: CatalogueError.self) { try db.execute("SELECT :a, :b", [":a": 1, ":a": 2]) }
        #expect(try db.scalarInt("SELECT :b - :a", [":a": 1, ":b": 5]) == 4)
    }

    /// SQL whose text a request chooses (an IN list of any length) made a statement per
    /// text, all kept: `serve` grew without bound. The cache keeps the most recent ones.
    @Test func preparedStatementsKeptAreBoundedAndTheRecentOnesStay() throws {
        let db = try Database(path: ":memory:")
        let limit = Database.cachedStatementLimit
        for count in 1...(limit * 3) {
            let list = Array(repeating: "1", count: count).joined(separator: ", ")
            #expect(try db.scalarInt("SELECT count(*) FROM (SELECT 1 WHERE 1 IN (\(list)))") == 1)
            // One statement asked for all along stays kept, however many others come and go.
            #expect(try db.scalarInt("SELECT 41 + 1") == 42)
        }
        #expect(db.cachedStatementCount == limit)
        let kept = try db.cachedStatement("SELECT 41 + 1")
        #expect(try db.cachedStatement("SELECT 41 + 1") === kept, "the recent statement was kept, not made again")
        // A statement a caller still holds works after being dropped from the cache.
        let held = try db.cachedStatement("SELECT 7")
        for count in 1...limit { _ = try db.cachedStatement("SELECT \(count) + 0") }
        #expect(try held.step() && held.int(0) == 7)
    }

    @Test func aNameAddedTwiceGetsItsOwnParameter() throws {
        let db = try Database(path: ":memory:")
        var arguments: SQLArguments = [:]
        let first = arguments.add(7, as: "x"), second = arguments.add(5, as: "x")
        #expect(first == ":x_1" && second == ":x_2")
        #expect(try db.scalarInt("SELECT \(first) - \(second)", arguments) == 2)
    }

    @Test(arguments: Storage.allCases)
    func aThrowInsideATransactionRollsEverythingBack(storage: Storage) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(storage, in: directory)
        try db.executeScript("CREATE TABLE t (x INTEGER UNIQUE)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (2)")
                throw Stop()
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        #expect(db.isAutocommit)
        // The first SQLite error is the one rethrown, and nothing stays.
        do {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (3)")
                try db.execute("INSERT INTO t VALUES (3)")
            }
            Issue.record("a duplicate committed")
        } catch let CatalogueError.sqlite(failure) {
            #expect(failure.code == SQLITE_CONSTRAINT)
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        let value = try db.transaction { () -> Int in
            try db.execute("INSERT INTO t VALUES (4)")
            return 4
        }
        #expect(value == 4)
        #expect(try db.scalarInt("SELECT x FROM t") == 4)
    }

    @Test func aDatabaseIsReleasedWithItsCachedStatements() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        weak var released: Database?
        var kept: Statement?
        do {
            let db = try Database(path: directory.path("db.sqlite"))
            try db.executeScript("CREATE TABLE t (x)")
            try db.execute("INSERT INTO t VALUES (:x)", [":x": 1])
            kept = try db.prepare("SELECT x FROM t")
            released = db
        }
        #expect(released == nil)
        // A statement that outlives its Database still works until released.
        #expect(try kept?.step() == true && kept?.int(0) == 1)
        kept = nil
    }

    @Test func aStatementSteppedToTheEndCanBeReused() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT value FROM (SELECT 1 AS value UNION ALL SELECT 2) WHERE value >= :minimum")
        for minimum in [1, 2, 3] {
            statement.reset()
            try statement.bind(minimum, to: ":minimum")
            var seen: [Int] = []
            while try statement.step() { seen.append(statement.int(0)) }
            #expect(seen == [1, 2].filter { $0 >= minimum })
        }
    }

    @Test func performRunsAStatementAgainKeepingWhatIsBound() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (a INTEGER, b TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (:a, :b)")
        try insert.bind(1, to: ":a")
        try insert.bind("kept", to: ":b")
        try insert.perform()
        try insert.bind(2, to: ":a")  // only the first parameter changes
        try insert.perform()
        try insert.bind(3, to: ":a")
        try insert.bind(String?.none, to: ":b")  // nil binds NULL
        try insert.perform()
        let rows = try db.rows("SELECT a, b FROM t ORDER BY a") { ($0.int(0), $0.optionalText(1)) }
        #expect(rows.map(\.0) == [1, 2, 3])
        #expect(rows.map(\.1) == ["kept", "kept", nil])
        // A failure still names the statement, and the statement stays usable.
        try db.executeScript("CREATE UNIQUE INDEX t_a ON t(a)")
        #expect(throws: CatalogueError.self) { try insert.perform() }
        try insert.bind(4, to: ":a")
        try insert.perform()
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 4)
    }
}
