import CPostgreSQL
import Foundation

/// The rows a statement returned, in PostgreSQL's text format, freed when released.
/// Rows are read by column name (`row.int64("image_id")`), beside the SQL that named them,
/// or by a record's reader (`RecordColumns`).
final class PostgresResult {
    private let handle: OpaquePointer
    /// The server and database, as errors about a value name them.
    let location: String

    init(_ handle: OpaquePointer, location: String) {
        self.handle = handle
        self.location = location
    }

    deinit { PQclear(handle) }

    var count: Int { Int(PQntuples(handle)) }

    /// How many rows an INSERT, UPDATE or DELETE changed.
    var changedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func row(_ index: Int) -> PostgresRow { PostgresRow(result: self, index: Int32(index)) }

    var rows: [PostgresRow] { (0..<count).map(row) }

    /// The index of the column called `name`; a name the SQL does not have is a programming error.
    func column(_ name: String) -> Int32 {
        let index = PQfnumber(handle, "\"\(name)\"")
        precondition(index >= 0, "no column \(name) in the result")
        return index
    }

    func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) == 1 }

    func text(_ row: Int32, _ column: Int32) -> String { String(cString: PQgetvalue(handle, row, column)) }

    /// A bytea column's bytes, unescaped by libpq from the text format's hex.
    func bytes(_ row: Int32, _ column: Int32) -> [UInt8] {
        var length = 0
        guard let value = PQgetvalue(handle, row, column),
              let unescaped = PQunescapeBytea(UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), &length) else {
            return []
        }
        defer { PQfreemem(unescaped) }
        return Array(UnsafeBufferPointer(start: unescaped, count: length))
    }
}

/// One row of a `PostgresResult`, read by column index as a record's reader reads it, or by
/// name (`row.int64("image_id")`) where a query is read beside its SQL (`CatalogueRow`).
/// The checked readers refuse what wardrobe never stores, as the SQLite catalogue's do.
struct PostgresRow: CatalogueRow {
    let result: PostgresResult
    let index: Int32

    func column(_ name: String) -> Int32 { result.column(name) }
    var location: String { result.location }

    func isNull(_ column: Int32) -> Bool { result.isNull(index, column) }
    func text(_ column: Int32) -> String { result.text(index, column) }
    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
    func int(_ column: Int32) -> Int { Int(int64(column)) }
    /// A bytea column's bytes.
    func blob(_ column: Int32) -> [UInt8] { result.bytes(index, column) }

    func label(_ column: Int32, upTo highest: Int, row: @autoclosure () -> String) throws -> Int {
        guard let value = Int(text(column)), (0...highest).contains(value) else {
            throw strange("\(row()): label \(text(column)), where a label is 0 to \(highest)")
        }
        return value
    }

    func confidence(_ column: Int32, row: @autoclosure () -> String) throws -> Double {
        let value = Double(text(column)) ?? .nan
        guard (0...1).contains(value) else {
            throw strange("\(row()): confidence \(text(column)), where a confidence is 0 to 1")
        }
        return value
    }

    func logits(_ column: Int32, count: Int, row: @autoclosure () -> String) throws -> [Float] {
        let bytes = blob(column)
        guard bytes.count == count * 4 else {
            throw strange("\(row()): logits of \(bytes.count) bytes, where they are \(count * 4)")
        }
        let logits = bytes.withUnsafeBytes { Catalogue.floats(littleEndian: $0) }
        if let value = logits.first(where: { !$0.isFinite }) {
            throw strange("\(row()): a logit of \(value), where logits are finite numbers")
        }
        return logits
    }

    func date(_ column: Int32, row: @autoclosure () -> String) throws -> Date {
        guard let milliseconds = Int64(text(column)), Statement.storedTimes.contains(milliseconds) else {
            throw strange("\(row()): time \(text(column)), where a time is milliseconds since 1970 in the years 1 to 9999")
        }
        return Date(catalogueMilliseconds: milliseconds)
    }

    private func strange(_ detail: String) -> CatalogueError {
        .strangeValue(path: result.location, detail: detail)
    }

    // By name, as PostgreSQL's text format gives them (the rest by name: `CatalogueRow`).

    func double(_ name: String) -> Double { Double(text(name)) ?? .nan }
    func bool(_ name: String) -> Bool { text(name) == "t" }
}
