import Foundation

/// A PostgreSQL catalogue's tables as `copy` reads and writes them whole (see `CatalogueCopier`).
extension PostgresCatalogue {
    public func tableNames() throws -> Set<String> {
        Set(try rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                     + "AND tablename <> 'wardrobe_migrations'") { $0.text("tablename") })
    }

    /// None: PostgreSQL keeps the foreign keys on every connection.
    public func rowsReferringNowhere() throws -> [String] { [] }

    public func columns(of table: CatalogueTable) throws -> [CatalogueTable.Column] {
        try rows("""
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = :name AND is_generated = 'NEVER'
            ORDER BY ordinal_position
            """, [":name": table.name]) { row in
            let kind: CatalogueTable.Column.Kind = switch row.text("data_type") {
            case "bigint", "integer", "smallint": .integer
            case "double precision", "real": .real
            case "bytea": .bytes
            default: .text
            }
            return CatalogueTable.Column(name: row.text("column_name"), kind: kind)
        }
    }

    /// Each value by its column's type; text keys in byte order (`COLLATE "C"`), as SQLite orders them.
    public func forEachRow(of table: CatalogueTable, columns: [CatalogueTable.Column],
                           _ body: ([StoredValue]) throws -> Void) throws {
        let kinds = Dictionary(columns.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        let order = table.key.map { kinds[$0] == .text ? "\"\($0)\" COLLATE \"C\"" : "\"\($0)\"" }
        try forEachRow("SELECT \(columns.map { "\"\($0.name)\"" }.joined(separator: ", ")) FROM \(table.name) "
                       + "ORDER BY \(order.joined(separator: ", "))") { row in
            try body(columns.indices.map { index throws -> StoredValue in
                let column = Int32(index)
                guard !row.isNull(column) else { return .null }
                let text = row.text(column)
                switch columns[index].kind {
                case .integer:
                    guard let value = Int64(text) else { throw strange(table, columns[index], text) }
                    return .integer(value)
                case .real:
                    guard let value = Double(text) else { throw strange(table, columns[index], text) }
                    return .real(value)
                case .text: return .text(text)
                case .bytes: return .bytes(row.result.bytes(row.index, column))
                }
            })
        }
    }

    private func strange(_ table: CatalogueTable, _ column: CatalogueTable.Column, _ text: String) -> CatalogueError {
        .strangeValue(path: path, detail: "\(table.name).\(column.name) holds '\(text)', which is not a \(column.kind)")
    }

    /// One transaction under the catalogue's write lock, with the tables' own triggers off
    /// (`DISABLE TRIGGER USER`: the foreign keys still hold) until it commits; the id
    /// sequences then start after the highest id written (the images' after the highest one
    /// retired too, the id of an image forgotten in the source), and the tables are vacuumed.
    public func loading(_ body: (any TableWriter) throws -> Void) throws {
        try connection.transaction {
            for table in CatalogueTable.all { try connection.execute("ALTER TABLE \(table.name) DISABLE TRIGGER USER") }
            try body(PostgresTableWriter(connection: connection))
            for identity in try rows("""
                SELECT table_name, column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND is_identity = 'YES'
                """, [:], { (table: $0.text("table_name"), column: $0.text("column_name")) }) {
                try connection.query("""
                    SELECT setval(pg_get_serial_sequence(:table, :column), coalesce(max("\(identity.column)"), 0) + 1, false)
                    FROM \(identity.table)
                    """, [":table": identity.table, ":column": identity.column])
            }
            try connection.query("""
                SELECT setval(pg_get_serial_sequence('images', 'id'), highest + 1, false) FROM retired_image_ids
                WHERE highest >= (SELECT coalesce(max(id), 0) FROM images)
                """)
            for table in CatalogueTable.all { try connection.execute("ALTER TABLE \(table.name) ENABLE TRIGGER USER") }
        }
        // Rows that came in one transaction, vacuumed and analysed now: the planner knows them, and
        // counts read the indexes alone (the visibility map), from the first query on.
        for table in CatalogueTable.all { try connection.execute("VACUUM (ANALYZE) \(table.name)") }
    }
}

/// Writes rows into a PostgreSQL catalogue's tables by `COPY ... FROM STDIN`, each call's
/// rows in one round trip.
private struct PostgresTableWriter: TableWriter {
    let connection: PostgresConnection

    func write(_ rows: [[StoredValue]], to table: CatalogueTable, columns: [CatalogueTable.Column]) throws {
        guard !rows.isEmpty else { return }
        var data: [UInt8] = []
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { data.append(UInt8(ascii: "\t")) }
                Self.append(value, to: &data)
            }
            data.append(UInt8(ascii: "\n"))
        }
        try connection.copyIn("COPY \(table.name) (\(columns.map { "\"\($0.name)\"" }.joined(separator: ", "))) "
                              + "FROM STDIN", data: data)
    }

    /// A value in COPY's text format: `\N` for NULL, a backslash before what would end a
    /// value or a row, bytes as bytea's hex (`\\x...`, its own backslash escaped).
    static func append(_ value: StoredValue, to data: inout [UInt8]) {
        switch value {
        case .null:
            data += Array(#"\N"#.utf8)
        case .integer(let number):
            data += Array(String(number).utf8)
        case .real(let number):
            let text = number.isNaN ? "NaN" : number.isInfinite ? (number < 0 ? "-Infinity" : "Infinity") : "\(number)"
            data += Array(text.utf8)
        case .text(let text):
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): data += Array(#"\\"#.utf8)
                case UInt8(ascii: "\n"): data += Array(#"\n"#.utf8)
                case UInt8(ascii: "\r"): data += Array(#"\r"#.utf8)
                case UInt8(ascii: "\t"): data += Array(#"\t"#.utf8)
                default: data.append(byte)
                }
            }
        case .bytes(let bytes):
            data += Array(#"\\x"#.utf8)
            let digits = Array("0123456789abcdef".utf8)
            for byte in bytes {
                data.append(digits[Int(byte >> 4)])
                data.append(digits[Int(byte & 15)])
            }
        }
    }
}
