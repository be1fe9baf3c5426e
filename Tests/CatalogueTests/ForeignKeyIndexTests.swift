import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Deleting a row makes the engine look for the rows that still refer to it through each
/// foreign key; without an index leading with the referring column, each look reads that
/// whole table. `forget` deletes images and their classifications, so every foreign key to
/// those two tables needs one: without it on current_classifications.classification_id,
/// forgetting 10,000 images of 100,000 took 30 s with the write lock held.
@Suite struct ForeignKeyIndexTests {
    /// The tables `forget` deletes rows from, whose referring columns must be indexed.
    static let deletedFrom: Set<String> = ["images", "classifications"]

    @Test func everyForeignKeyToARowForgetDeletesLeadsAnIndexInSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("wardrobe.sqlite")
        _ = try CatalogueStorage.open(path, access: .create)
        let database = try Database(path: path, mode: .readOnly)
        let tables = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.text(0) }
        var referring: [String] = []
        var unindexed: [String] = []
        for table in tables {
            let keys = try database.rows("SELECT \"table\" AS parent, \"from\" AS child FROM pragma_foreign_key_list(:t)",
                                         [":t": table]) { ($0.text(0), $0.text(1)) }
            // The first column of each index, and of the primary key (a WITHOUT ROWID table's own index).
            var leading = Set(try database.rows("""
                SELECT (SELECT name FROM pragma_index_info(l.name) WHERE seqno = 0) AS first FROM pragma_index_list(:t) AS l
                """, [":t": table]) { $0.text(0) })
            leading.formUnion(try database.rows("SELECT name FROM pragma_table_info(:t) WHERE pk = 1", [":t": table]) { $0.text(0) })
            for (parent, child) in keys where Self.deletedFrom.contains(parent) {
                referring.append("\(table).\(child)")
                if !leading.contains(child) { unindexed.append("\(table).\(child) -> \(parent)") }
            }
        }
        #expect(referring.contains("current_classifications.classification_id"), "\(referring)")
        #expect(unindexed.isEmpty, "foreign keys no index leads with: \(unindexed)")
    }

    @Test(.enabled(if: TestPostgres.isInstalled, "PostgreSQL is not installed (make deps installs it)"))
    func everyForeignKeyToARowForgetDeletesLeadsAnIndexInPostgreSQL() throws {
        let postgres = try TestPostgres.shared()
        let url = try postgres.newDatabase("keys")
        _ = try CatalogueStorage.open(url, access: .create)
        let database = String(url.split(separator: "/").last!)
        // Each single-column foreign key to those tables, and whether an index of its table leads with it.
        let rows = try postgres.psql(database, """
            SELECT k.conrelid::regclass || '.' || a.attname || ' ' ||
                   EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = k.conrelid AND i.indkey[0] = k.conkey[1])
            FROM pg_constraint AS k JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
            WHERE k.contype = 'f' AND k.confrelid::regclass::text IN (\(Self.deletedFrom.sorted().map { "'\($0)'" }.joined(separator: ", ")))
            ORDER BY 1
            """).split(separator: "\n").map(String.init)
        #expect(rows.contains("current_classifications.classification_id true"), "\(rows)")
        #expect(!rows.isEmpty && rows.allSatisfy { $0.hasSuffix(" true") }, "foreign keys no index leads with: \(rows.filter { !$0.hasSuffix(" true") })")
    }
}
