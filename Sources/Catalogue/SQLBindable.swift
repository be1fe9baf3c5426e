import CSQLite

/// A Swift value that can be bound to a statement parameter.
public protocol SQLBindable {
    /// Binds self at the 1-based index and returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Int64: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
}

extension Int32: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Bool: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension Double: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
}

extension String: SQLBindable {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var copy = self
        return copy.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, csqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(statement, index, $0, Int32(utf8.count), csqlite_transient())
            }
        }
    }
}

extension Array: SQLBindable where Element == UInt8 {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // A nil pointer would bind NULL, so an empty blob is bound as a zero-length blob.
        guard !isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
        }
    }
}
