/// A value sent to PostgreSQL as a query parameter, never spliced into SQL text.
/// Numbers, text and bytes go in PostgreSQL's binary format with their type
/// named, so a float64 or a thumbnail arrives bit for bit, with no text
/// formatting or escaping between; an id list goes as an `int8[]` literal.
struct PostgresValue {
    /// PostgreSQL's type id (`pg_type.oid`) of the parameter.
    let type: UInt32
    /// 1 for binary, 0 for text.
    let format: Int32
    let bytes: [UInt8]

    static let int8 = UInt32(20), float8 = UInt32(701), text = UInt32(25), bytea = UInt32(17),
               bool = UInt32(16), int8Array = UInt32(1016)

    /// An id list for `= ANY($n)`: one parameter whatever the list's length.
    static func ids(_ values: [Int64]) -> PostgresValue {
        PostgresValue(type: int8Array, format: 0, bytes: Array(("{" + values.map(String.init).joined(separator: ",") + "}").utf8) + [0])
    }
}

/// A Swift value that can be a query parameter.
protocol PostgresBindable {
    var postgresValue: PostgresValue { get }
}

extension Int64: PostgresBindable {
    var postgresValue: PostgresValue {
        PostgresValue(type: PostgresValue.int8, format: 1, bytes: withUnsafeBytes(of: bigEndian) { Array($0) })
    }
}

extension Int: PostgresBindable {
    var postgresValue: PostgresValue { Int64(self).postgresValue }
}

extension RowID: PostgresBindable {
    var postgresValue: PostgresValue { rawValue.postgresValue }
}

extension Double: PostgresBindable {
    var postgresValue: PostgresValue {
        PostgresValue(type: PostgresValue.float8, format: 1, bytes: withUnsafeBytes(of: bitPattern.bigEndian) { Array($0) })
    }
}

extension Bool: PostgresBindable {
    var postgresValue: PostgresValue { PostgresValue(type: PostgresValue.bool, format: 1, bytes: [self ? 1 : 0]) }
}

extension String: PostgresBindable {
    var postgresValue: PostgresValue { PostgresValue(type: PostgresValue.text, format: 1, bytes: Array(utf8)) }
}

extension Array: PostgresBindable where Element == UInt8 {
    var postgresValue: PostgresValue { PostgresValue(type: PostgresValue.bytea, format: 1, bytes: self) }
}

extension PostgresValue: PostgresBindable {
    var postgresValue: PostgresValue { self }
}
