import CSQLite

/// The id of a row in one table. The phantom `Table` keeps an image id from
/// being passed where a run id belongs.
public struct RowID<Table>: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible, SQLBindable {
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }

    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, rawValue)
    }
}

public enum ImageTable {}
public enum ModelTable {}
public enum RunTable {}
public enum ClassificationTable {}

public typealias ImageID = RowID<ImageTable>
public typealias ModelID = RowID<ModelTable>
public typealias RunID = RowID<RunTable>
public typealias ClassificationID = RowID<ClassificationTable>
