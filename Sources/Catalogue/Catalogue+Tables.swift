import CSQLite

/// An SQLite catalogue's tables as `copy` reads and writes them whole (see `CatalogueCopier`).
extension Catalogue {
    public func tableNames() throws -> Set<String> {
        Set(try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            $0.text("name")
        })
    }

    /// From `table_xinfo`, whose `hidden` is 2 or 3 for a generated column; the kind is the
    /// declared type's affinity, by SQLite's own rules (an INT anywhere in it, then CHAR,
    /// CLOB or TEXT, then BLOB or nothing, else REAL).
    public func columns(of table: CatalogueTable) throws -> [CatalogueTable.Column] {
        let statement = try database.prepare("SELECT name, type, hidden FROM pragma_table_xinfo(:table) ORDER BY cid")
        try statement.bind([":table": table.name])
        let name = statement.column("name"), type = statement.column("type"), hidden = statement.column("hidden")
        var columns: [CatalogueTable.Column] = []
        while try statement.step() {
            guard statement.int(hidden) == 0 else { continue }
            let declared = statement.text(type).uppercased()
            let kind: CatalogueTable.Column.Kind =
                if declared.contains("INT") { .integer }
                else if ["CHAR", "CLOB", "TEXT"].contains(where: declared.contains) { .text }
                else if declared.isEmpty || declared.contains("BLOB") { .bytes }
                else { .real }
            columns.append(CatalogueTable.Column(name: statement.text(name), kind: kind))
        }
        return columns
    }

    public func rowsReferringNowhere() throws -> [String] {
        try database.rowsReferringNowhere()
    }

    /// Each value as SQLite holds it (its storage class), whatever the column declares.
    public func forEachRow(of table: CatalogueTable, columns: [CatalogueTable.Column],
                           _ body: ([StoredValue]) throws -> Void) throws {
        let statement = try database.prepare("SELECT \(columns.map { "\"\($0.name)\"" }.joined(separator: ", ")) "
                                              + "FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))")
        let indices = Int32(0)..<Int32(columns.count)
        while try statement.step() {
            try body(indices.map { column in
                switch sqlite3_column_type(statement.handle, column) {
                case SQLITE_NULL: .null
                case SQLITE_INTEGER: .integer(statement.int64(column))
                case SQLITE_FLOAT: .real(statement.double(column))
                case SQLITE_TEXT: .text(statement.text(column))
                default: .bytes(statement.blob(column))
                }
            })
        }
    }

    /// One immediate transaction, with the connection's triggers off until it ends.
    public func loading(_ body: (any TableWriter) throws -> Void) throws {
        guard csqlite_enable_triggers(database.handle, 0) == SQLITE_OK else {
            throw CatalogueError.invalidArgument("\(path): SQLite would not turn its triggers off for the copy")
        }
        defer { _ = csqlite_enable_triggers(database.handle, 1) }
        try database.transaction(.immediate) { try body(SQLiteTableWriter(database: database)) }
    }
}

/// Writes rows into an SQLite catalogue's tables, one prepared INSERT per table.
private struct SQLiteTableWriter: TableWriter {
    let database: Database

    func write(_ rows: [[StoredValue]], to table: CatalogueTable, columns: [CatalogueTable.Column]) throws {
        let statement = try database.cachedStatement(
            "INSERT INTO \(table.name) (\(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))) "
            + "VALUES (\(columns.indices.map { ":c\($0)" }.joined(separator: ", ")))")
        for row in rows {
            statement.reset()
            var arguments: SQLArguments = [:]
            for (index, value) in row.enumerated() { arguments[":c\(index)"] = value }
            try statement.bind(arguments)
            try statement.perform()
        }
    }
}
