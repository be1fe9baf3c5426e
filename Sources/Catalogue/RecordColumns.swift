/// How one record type is read from a row, by column name, beside the column
/// list its queries SELECT (`list`): each query splices `list` into its SQL
/// and reads its rows with `Database.records` (SQLite) or `PostgresCatalogue.records`,
/// one reader for both engines. The reader finds its columns by name once per
/// result, so a query may put other columns before or after, and reads each row by index.
protocol RecordColumns {
    associatedtype Record
    /// The columns, as a SELECT lists them.
    static var list: String { get }
    /// Finds each column of `list` in `statement` (a result of either engine) by its name.
    init(_ statement: some CatalogueRow)
    func record(_ row: some CatalogueRow) throws -> Record
}

extension Database {
    /// The records a query returns, each read by `Columns`.
    func records<Columns: RecordColumns>(_ sql: String, _ arguments: SQLArguments = [:],
                                         as columns: Columns.Type) throws -> [Columns.Record] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        let reader = Columns(statement)
        var result: [Columns.Record] = []
        while try statement.step() { result.append(try reader.record(statement)) }
        return result
    }
}
