import Foundation

/// A row of either engine as a record's reader (`RecordColumns`) reads it: each column found
/// by name once per result, each value read by that index. SQLite's `Statement` and
/// PostgreSQL's `PostgresRow` both are one, so a record type is decoded in one place for
/// both engines. The checked readers refuse what wardrobe never stores, so a value changed
/// by another program is one clear error (`CatalogueError.strangeValue`), not a crash.
protocol CatalogueRow {
    /// The index of the result column called `name`; a name the SQL lacks is a programming error.
    func column(_ name: String) -> Int32
    /// The catalogue, as errors name it.
    var location: String { get }

    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    func int(_ column: Int32) -> Int
    func text(_ column: Int32) -> String
    func blob(_ column: Int32) -> [UInt8]
    /// A label in `0...highest`; `row` names the row for the error.
    func label(_ column: Int32, upTo highest: Int, row: @autoclosure () -> String) throws -> Int
    /// A confidence in `0...1`.
    func confidence(_ column: Int32, row: @autoclosure () -> String) throws -> Double
    /// `count` little-endian Float32 logits, each a finite number.
    func logits(_ column: Int32, count: Int, row: @autoclosure () -> String) throws -> [Float]
    /// A time stored as milliseconds since 1970 UTC, in the years 1 to 9999.
    func date(_ column: Int32, row: @autoclosure () -> String) throws -> Date
}

extension CatalogueRow {
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func optionalDate(_ column: Int32, row: @autoclosure () -> String) throws -> Date? {
        isNull(column) ? nil : try date(column, row: row())
    }

    func optionalLabel(_ column: Int32, upTo highest: Int, row: @autoclosure () -> String) throws -> Int? {
        isNull(column) ? nil : try label(column, upTo: highest, row: row())
    }

    /// The capture time in `clock` and `offset`; nil when the image has none. A clock outside
    /// the years 1 to 9999 or an offset no clock keeps (`TakenTime.offsets`) is refused as any
    /// strange value is.
    func takenTime(_ clock: Int32, _ offset: Int32, row: @autoclosure () -> String) throws -> TakenTime? {
        guard !isNull(clock) else { return nil }
        let minutes = isNull(offset) ? nil : int(offset)
        if let minutes, !TakenTime.offsets.contains(minutes) {
            throw CatalogueError.strangeValue(path: location, detail: "\(row()): a capture time's offset of \(minutes) minutes, "
                                                + "where a clock's is at most 14:59 hours")
        }
        return TakenTime(clock: try date(clock, row: row()), offsetMinutes: minutes)
    }
}

/// The current row's values read by column name (`row.int("images")`), for a query read where
/// its SQL is written; a query of many rows finds its indexes once, before the loop.
extension CatalogueRow {
    func isNull(_ name: String) -> Bool { isNull(column(name)) }
    func int64(_ name: String) -> Int64 { int64(column(name)) }
    func int(_ name: String) -> Int { int(column(name)) }
    func text(_ name: String) -> String { text(column(name)) }
    func optionalText(_ name: String) -> String? { optionalText(column(name)) }
    func optionalInt64(_ name: String) -> Int64? { optionalInt64(column(name)) }
    func blob(_ name: String) -> [UInt8] { blob(column(name)) }
    func optionalBlob(_ name: String) -> [UInt8]? { isNull(name) ? nil : blob(name) }
    func sha256(_ name: String) throws -> SHA256Digest { try SHA256Digest(bytes: blob(name)) }

    func label(_ name: String, upTo highest: Int, row: @autoclosure () -> String) throws -> Int {
        try label(column(name), upTo: highest, row: row())
    }

    func optionalLabel(_ name: String, upTo highest: Int, row: @autoclosure () -> String) throws -> Int? {
        try optionalLabel(column(name), upTo: highest, row: row())
    }

    func confidence(_ name: String, row: @autoclosure () -> String) throws -> Double {
        try confidence(column(name), row: row())
    }

    func logits(_ name: String, count: Int, row: @autoclosure () -> String) throws -> [Float] {
        try logits(column(name), count: count, row: row())
    }

    func date(_ name: String, row: @autoclosure () -> String) throws -> Date { try date(column(name), row: row()) }

    func optionalDate(_ name: String, row: @autoclosure () -> String) throws -> Date? {
        try optionalDate(column(name), row: row())
    }
}

extension Statement: CatalogueRow {
    var location: String { path }
}
