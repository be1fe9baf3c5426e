import CSQLite

/// One value of a catalogue's row as an engine keeps it, for `copy`: the row read
/// from one engine is written to the other as it is, and both sides' rows are
/// compared value for value (`CatalogueCopier`). Which case a value is comes from the
/// engine that holds it (SQLite's storage class, PostgreSQL's column type), so a
/// value another program stored under the wrong type is refused by the other engine,
/// never turned into something else on the way.
public enum StoredValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])

    /// The value in one unambiguous form for a digest: a tag, then a fixed-size number or a
    /// length and the bytes, so that no two rows' values run together into the same bytes.
    func append(to buffer: inout [UInt8]) {
        func appendLength(_ count: Int) { withUnsafeBytes(of: UInt64(count).littleEndian) { buffer += $0 } }
        switch self {
        case .null:
            buffer.append(0)
        case .integer(let value):
            buffer.append(1)
            withUnsafeBytes(of: value.littleEndian) { buffer += $0 }
        case .real(let value):
            buffer.append(2)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { buffer += $0 }
        case .text(let value):
            buffer.append(3)
            appendLength(value.utf8.count)
            buffer += value.utf8
        case .bytes(let value):
            buffer.append(4)
            appendLength(value.count)
            buffer += value
        }
    }
}

extension StoredValue: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): value.bind(to: statement, at: index)
        case .real(let value): value.bind(to: statement, at: index)
        case .text(let value): value.bind(to: statement, at: index)
        case .bytes(let value): value.bind(to: statement, at: index)
        }
    }
}
