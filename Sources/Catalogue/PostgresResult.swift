import CPostgreSQL
import Foundation

/// The rows a statement returned, in PostgreSQL's text format, freed when released.
/// Rows are read by column name (`row.int64("image_id")`), beside the SQL that named them.
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

/// One row of a `PostgresResult`. The checked readers (`label`, `confidence`, `date`,
/// `logits`) refuse what wardrobe never stores, as the SQLite catalogue's do, so a value
/// changed by another program is one clear error, not a crash.
struct PostgresRow {
    let result: PostgresResult
    let index: Int32

    func isNull(_ name: String) -> Bool { result.isNull(index, result.column(name)) }
    func isNull(at column: Int32) -> Bool { result.isNull(index, column) }

    func text(_ name: String) -> String { result.text(index, result.column(name)) }
    func optionalText(_ name: String) -> String? { isNull(name) ? nil : text(name) }

    func int64(_ name: String) -> Int64 { Int64(text(name)) ?? 0 }
    func int(_ name: String) -> Int { Int(int64(name)) }
    func optionalInt64(_ name: String) -> Int64? { isNull(name) ? nil : int64(name) }
    func optionalInt64(at column: Int32) -> Int64? {
        result.isNull(index, column) ? nil : Int64(result.text(index, column))
    }

    func double(_ name: String) -> Double { Double(text(name)) ?? .nan }
    func bool(_ name: String) -> Bool { text(name) == "t" }

    func bytes(_ name: String) -> [UInt8] { result.bytes(index, result.column(name)) }
    func optionalBytes(_ name: String) -> [UInt8]? { isNull(name) ? nil : bytes(name) }

    func sha256(_ name: String) throws -> SHA256Digest { try SHA256Digest(bytes: bytes(name)) }

    /// A label in `0...highest`; `row` names the row for the error.
    func label(_ name: String, upTo highest: Int, row: @autoclosure () -> String) throws -> Int {
        guard let value = Int(text(name)), (0...highest).contains(value) else {
            throw strange("\(row()): label \(text(name)), where a label is 0 to \(highest)")
        }
        return value
    }

    func optionalLabel(_ name: String, upTo highest: Int, row: @autoclosure () -> String) throws -> Int? {
        isNull(name) ? nil : try label(name, upTo: highest, row: row())
    }

    /// A confidence in `0...1`.
    func confidence(_ name: String, row: @autoclosure () -> String) throws -> Double {
        let value = double(name)
        guard (0...1).contains(value) else {
            throw strange("\(row()): confidence \(text(name)), where a confidence is 0 to 1")
        }
        return value
    }

    /// `count` little-endian float32 logits, each a finite number.
    func logits(_ name: String, count: Int, row: @autoclosure () -> String) throws -> [Float] {
        let blob = bytes(name)
        guard blob.count == count * 4 else {
            throw strange("\(row()): logits of \(blob.count) bytes, where they are \(count * 4)")
        }
        let logits = blob.withUnsafeBytes { Catalogue.floats(littleEndian: $0) }
        if let value = logits.first(where: { !$0.isFinite }) {
            throw strange("\(row()): a logit of \(value), where logits are finite numbers")
        }
        return logits
    }

    /// A time stored as milliseconds since 1970 UTC, in the years 1 to 9999.
    func date(_ name: String, row: @autoclosure () -> String) throws -> Date {
        guard let milliseconds = Int64(text(name)), Statement.storedTimes.contains(milliseconds) else {
            throw strange("\(row()): time \(text(name)), where a time is milliseconds since 1970 in the years 1 to 9999")
        }
        return Date(catalogueMilliseconds: milliseconds)
    }

    func optionalDate(_ name: String, row: @autoclosure () -> String) throws -> Date? {
        isNull(name) ? nil : try date(name, row: row())
    }

    private func strange(_ detail: String) -> CatalogueError {
        .strangeValue(path: result.location, detail: detail)
    }
}
