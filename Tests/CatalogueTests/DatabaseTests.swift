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
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?)", Int64.max, 0.25, text, [UInt8]([0, 1, 255]))
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?)", nil, nil, "", [UInt8]())
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
        try db.execute("INSERT INTO t VALUES (?)", 1)
        do {
            try db.execute("INSERT INTO t VALUES (?)", 1)
            Issue.record("a duplicate was accepted")
        } catch let CatalogueError.sqlite(failure) {
            #expect(failure.code == SQLITE_CONSTRAINT)
            #expect(failure.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(failure.message == "UNIQUE constraint failed: t.x")
            #expect(failure.sql == "INSERT INTO t VALUES (?)")
            #expect(failure.description ==
                "in-memory database: SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x - while executing `INSERT INTO t VALUES (?)`")
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

    @Test func aWrongNumberOfValuesIsRefused() throws {
        let db = try Database(path: ":memory:")
        #expect(throws: CatalogueError.self) { try db.execute("SELECT ?, ?", 1) }
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
            try db.execute("INSERT INTO t VALUES (?)", 1)
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
        let statement = try db.prepare("SELECT value FROM (SELECT 1 AS value UNION ALL SELECT 2) WHERE value >= ?")
        for minimum in [1, 2, 3] {
            statement.reset()
            try statement.bind(minimum, at: 1)
            var seen: [Int] = []
            while try statement.step() { seen.append(statement.int(0)) }
            #expect(seen == [1, 2].filter { $0 >= minimum })
        }
    }

    @Test func performRunsAStatementAgainKeepingWhatIsBound() throws {
        let db = try Database(path: ":memory:")
        try db.executeScript("CREATE TABLE t (a INTEGER, b TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
        try insert.bind(1, at: 1)
        try insert.bind("kept", at: 2)
        try insert.perform()
        try insert.bind(2, at: 1)  // only the first parameter changes
        try insert.perform()
        try insert.bind(3, at: 1)
        try insert.bind(String?.none, at: 2)  // nil binds NULL
        try insert.perform()
        let rows = try db.rows("SELECT a, b FROM t ORDER BY a") { ($0.int(0), $0.optionalText(1)) }
        #expect(rows.map(\.0) == [1, 2, 3])
        #expect(rows.map(\.1) == ["kept", "kept", nil])
        // A failure still names the statement, and the statement stays usable.
        try db.executeScript("CREATE UNIQUE INDEX t_a ON t(a)")
        #expect(throws: CatalogueError.self) { try insert.perform() }
        try insert.bind(4, at: 1)
        try insert.perform()
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 4)
    }
}
