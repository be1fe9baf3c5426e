import CSQLite
import Foundation

/// A compiled SQL statement. Values are only ever bound, never spliced into
/// the SQL. It finalises itself when released.
public final class Statement {
    public let sql: String
    let handle: OpaquePointer
    /// The connection, not the `Database`: the database caches statements, and
    /// a reference back would keep both alive forever. `sqlite3_close_v2`
    /// waits for statements that outlive their `Database` to be finalised.
    private let connection: OpaquePointer
    /// The catalogue's file, for errors that name it.
    let path: String
    /// The result's columns by name (see `column(_:)`).
    private var columnsByName: [String: Int32]?

    init(database: Database, sql: String, persistent: Bool) throws {
        connection = database.handle
        path = database.path
        self.sql = sql
        var prepared: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(database.handle, sql, -1, flags, &prepared, nil)
        guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
        guard let prepared else {
            throw CatalogueError.invalidArgument("empty SQL statement: `\(sql)`")
        }
        handle = prepared
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Advances to the next row: true on a row, false when done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = Database.error(connection, code: code, sql: sql, path: path)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Back to the start, with every parameter unbound (NULL).
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs a statement that returns no rows and leaves it ready to run
    /// again. The bound values stay: a caller running it once per row of a
    /// batch binds every parameter each time, so clearing them would be waste.
    public func perform() throws {
        while try step() {}
        sqlite3_reset(handle)
    }

    // MARK: - Binding (by name; 1-based indexes inside, as in SQL)

    /// Binds each of `arguments` to the parameter of its name; `nil` binds NULL. The statement
    /// must have exactly these parameters: one the arguments leave out would silently be NULL.
    public func bind(_ arguments: SQLArguments) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.names.count == expected else {
            throw CatalogueError.invalidArgument(
                "\(arguments.names.count) values for \(expected) parameters in `\(sql)`")
        }
        // A name given twice leaves another parameter unbound: NULL, or a value an earlier
        // use of this cached statement left in it.
        var bound = [Bool](repeating: false, count: expected + 1)
        for (name, value) in zip(arguments.names, arguments.values) {
            let index = sqlite3_bind_parameter_index(handle, name)
            guard index > 0 else { throw CatalogueError.invalidArgument("no parameter \(name) in `\(sql)`") }
            guard !bound[Int(index)] else { throw CatalogueError.invalidArgument("\(name) given twice for `\(sql)`") }
            bound[Int(index)] = true
            try check(value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index))
        }
    }

    /// Generic rather than `any SQLBindable`, so that binding in a per-row
    /// loop is a direct call with no existential box to make and destroy.
    private func bind<Value: SQLBindable>(_ value: Value?, at index: Int32) throws {
        try check(value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index))
    }

    /// Binds `value` to the parameter called `name` (`:sha256`), so that the SQL and
    /// what is bound to it agree by name rather than by counting. A name the SQL does
    /// not have is a programming error.
    public func bind<Value: SQLBindable>(_ value: Value?, to name: String) throws {
        let index = sqlite3_bind_parameter_index(handle, name)
        precondition(index > 0, "no parameter \(name) in `\(sql)`")
        try bind(value, at: index)
    }

    /// Binds a value whose type is known only at run time (one of a list of columns).
    public func bind(_ value: (any SQLBindable)?, to name: String) throws {
        let index = sqlite3_bind_parameter_index(handle, name)
        precondition(index > 0, "no parameter \(name) in `\(sql)`")
        try check(value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index))
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw Database.error(connection, code: code, sql: sql, path: path) }
    }

    // MARK: - Columns (0-based, as in SQLite's C API)

    /// The index of the result column called `name` (its alias, else its own
    /// name), to read rows by name: look it up once per statement, then read
    /// each row by index. A name the SQL does not have is a programming error.
    public func column(_ name: String) -> Int32 {
        if columnsByName == nil {
            // A compiled statement's columns never change: named once, at the first look.
            columnsByName = Dictionary((0..<sqlite3_column_count(handle)).map {
                (String(cString: sqlite3_column_name(handle, $0)), $0)
            }, uniquingKeysWith: { first, _ in first })
        }
        guard let index = columnsByName?[name] else { preconditionFailure("no column \(name) in `\(sql)`") }
        return index
    }

    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func optionalBlob(_ column: Int32) -> [UInt8]? {
        isNull(column) ? nil : blob(column)
    }

    // Values the code indexes or formats by, read where they leave the catalogue. The schema's
    // CHECKs hold them to their domain, but another program (sqlite3 with ignore_check_constraints,
    // a table rebuilt without them, current_classifications, which has none) can leave any value,
    // and a label of 99 indexed the label list, a logits blob of one byte met a precondition and
    // an infinite confidence met Int(_:): each ended the process (for serve, every user's server).

    /// A label in `0...highest`; `row` names the row for the error.
    public func label(_ column: Int32, upTo highest: Int, row: @autoclosure () -> String) throws -> Int {
        let value = sqlite3_column_int64(handle, column)
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER, (0...Int64(highest)).contains(value) else {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): label \(text(column)), where a label is 0 to \(highest)")
        }
        return Int(value)
    }

    /// A confidence in `0...1`; `row` names the row for the error.
    public func confidence(_ column: Int32, row: @autoclosure () -> String) throws -> Double {
        let value = sqlite3_column_double(handle, column)
        guard (0...1).contains(value) else {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): confidence \(text(column)), where a confidence is 0 to 1")
        }
        return value
    }

    /// `count` little-endian Float32 logits, each a finite number (wardrobe stores no
    /// classification whose logits overflowed); `row` names the row for the error. An infinite
    /// logit made the probabilities `show` prints NaN, which stopped `show --json` in JSONEncoder.
    public func logits(_ column: Int32, count: Int, row: @autoclosure () -> String) throws -> [Float] {
        let bytes = Int(sqlite3_column_bytes(handle, column))
        guard bytes == count * 4 else {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): logits of \(bytes) bytes, where they are \(count * 4)")
        }
        let logits = withBlob(column) { Catalogue.floats(littleEndian: $0) }
        if let value = logits.first(where: { !$0.isFinite }) {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): a logit of \(value), where logits are finite numbers")
        }
        return logits
    }

    /// A time stored as milliseconds since 1970 UTC, in the years 1 to 9999 as wardrobe stores
    /// them; `row` names the row for the error. A time of Int64.max milliseconds made a date
    /// that RowWriter's timestamp could not turn back into milliseconds without overflowing.
    public func date(_ column: Int32, row: @autoclosure () -> String) throws -> Date {
        let milliseconds = sqlite3_column_int64(handle, column)
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER, Self.storedTimes.contains(milliseconds) else {
            throw CatalogueError.strangeValue(path: path, detail: "\(row()): time \(text(column)), where a time is "
                                                + "milliseconds since 1970 in the years 1 to 9999")
        }
        return Date(catalogueMilliseconds: milliseconds)
    }

    /// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    static let storedTimes: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The blob's bytes, valid only inside `body` and until the next step.
    public func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
