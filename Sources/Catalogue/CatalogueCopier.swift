import Foundation

/// A running digest of a table's rows, made by the caller (`Catalogue` knows no hash
/// function; `Wardrobe`'s is SHA-256).
public protocol RowDigest: AnyObject {
    func update(_ bytes: [UInt8])
    func finish() -> [UInt8]
}

/// Copies a whole catalogue into an empty one, of either engine (`wardrobe copy`):
/// every row of every table (`CatalogueTable.all`) as it is stored, ids, history,
/// thumbnails and the rows triggers made included (the leases of processes working on
/// the source left behind), read from one snapshot of the
/// source and written in one transaction of the destination with its triggers off.
/// Before that transaction commits, each table is read back from the destination
/// and compared with the source by its row count and a digest of its rows in key
/// order; a difference rolls the whole copy back.
///
/// Both catalogues must be at the same schema step, with the same tables and
/// columns; the destination must hold no row at all.
public enum CatalogueCopier {
    /// What was copied of one table: its rows and their digest, the same on both sides.
    public struct TableCopy: Sendable {
        public let table: String
        public let rows: Int
        public let digest: [UInt8]
    }

    /// Rows written per round trip, and the bytes after which a batch goes sooner (thumbnails).
    static let batchRows = 5_000
    static let batchBytes = 8 << 20

    /// Whether `store` holds no row in any table (a new catalogue, or an empty database).
    public static func isEmpty(_ store: any CatalogueStore) throws -> Bool {
        try firstNonEmptyTable(store) == nil
    }

    public static func copy(from source: any CatalogueStore, to destination: any CatalogueStore,
                            digest makeDigest: () -> any RowDigest) throws -> [TableCopy] {
        let sourceVersion = try source.version, destinationVersion = try destination.version
        guard sourceVersion == destinationVersion else {
            throw CatalogueError.copyRefused(path: destination.path, reason: "it is at schema step \(destinationVersion) "
                                             + "and \(source.path) at step \(sourceVersion); both must be at the same")
        }
        let columns = try CatalogueTable.all.map { try sameColumns($0, source, destination) }
        // The destination keeps its foreign keys while it loads: such a row would stop the copy
        // part way with the engine's own message.
        if let dangling = try source.rowsReferringNowhere().first {
            throw CatalogueError.copyRefused(path: source.path, reason: "it has \(dangling); 'wardrobe check' lists "
                                             + "them, and nothing was written")
        }
        return try source.read {
            var copies: [TableCopy] = []
            try destination.loading { writer in
                if let table = try firstNonEmptyTable(destination) {
                    throw CatalogueError.copyRefused(path: destination.path,
                                                     reason: "it is not empty (its \(table) has rows); copy writes only into a new or empty catalogue")
                }
                for (table, pair) in zip(CatalogueTable.all, columns) {
                    copies.append(try copyTable(table, columns: pair, from: source, writer: writer, digest: makeDigest()))
                }
                for (copy, (table, pair)) in zip(copies, zip(CatalogueTable.all, columns)) {
                    let written = try digest(table, columns: pair.destination, in: destination, makeDigest())
                    guard written.rows == copy.rows, written.digest == copy.digest else {
                        throw CatalogueError.copyRefused(
                            path: destination.path, reason: "its \(table.name) read back differs from the source's "
                                + "(\(written.rows) rows where \(copy.rows) were written, or other values); nothing was kept")
                    }
                }
            }
            return copies
        }
    }

    /// The columns of `table` in both, in the source's order; refused unless both have the
    /// same names and kinds.
    private static func sameColumns(_ table: CatalogueTable, _ source: any CatalogueStore,
                                    _ destination: any CatalogueStore) throws
        -> (source: [CatalogueTable.Column], destination: [CatalogueTable.Column]) {
        for store in [source, destination] {
            let unknown = try store.tableNames().subtracting(CatalogueTable.all.map(\.name))
            if !unknown.isEmpty {
                throw CatalogueError.copyRefused(path: store.path, reason: "it has tables copy does not know ("
                                                 + unknown.sorted().joined(separator: ", ") + ")")
            }
        }
        let fromSource = try source.columns(of: table), fromDestination = try destination.columns(of: table)
        let byName = Dictionary(fromDestination.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard fromSource.count == fromDestination.count, fromSource.allSatisfy({ byName[$0.name] == $0 }) else {
            throw CatalogueError.copyRefused(path: destination.path, reason: "its table \(table.name) has other columns "
                                             + "than the source's (\(fromDestination.map(\.name).joined(separator: ", ")))")
        }
        return (fromSource, fromSource.compactMap { byName[$0.name] })
    }

    private static func copyTable(_ table: CatalogueTable,
                                  columns: (source: [CatalogueTable.Column], destination: [CatalogueTable.Column]),
                                  from source: any CatalogueStore, writer: any TableWriter,
                                  digest: any RowDigest) throws -> TableCopy {
        var batch: [[StoredValue]] = []
        var encoded: [UInt8] = []
        var rows = 0
        guard table.carriedByCopy else { return TableCopy(table: table.name, rows: 0, digest: digest.finish()) }
        try source.forEachRow(of: table, columns: columns.source) { row in
            rows += 1
            for value in row { value.append(to: &encoded) }
            batch.append(row)
            if batch.count >= batchRows || encoded.count >= batchBytes {
                try writer.write(batch, to: table, columns: columns.destination)
                digest.update(encoded)
                batch.removeAll(keepingCapacity: true)
                encoded.removeAll(keepingCapacity: true)
            }
        }
        try writer.write(batch, to: table, columns: columns.destination)
        digest.update(encoded)
        return TableCopy(table: table.name, rows: rows, digest: digest.finish())
    }

    private static func digest(_ table: CatalogueTable, columns: [CatalogueTable.Column], in store: any CatalogueStore,
                               _ digest: any RowDigest) throws -> (rows: Int, digest: [UInt8]) {
        var encoded: [UInt8] = []
        var rows = 0
        try store.forEachRow(of: table, columns: columns) { row in
            rows += 1
            for value in row { value.append(to: &encoded) }
            if encoded.count >= batchBytes {
                digest.update(encoded)
                encoded.removeAll(keepingCapacity: true)
            }
        }
        digest.update(encoded)
        return (rows, digest.finish())
    }

    /// The first table of `store` holding a row, nil when none does.
    private static func firstNonEmptyTable(_ store: any CatalogueStore) throws -> String? {
        struct Found: Error {}
        for table in CatalogueTable.all {
            let columns = try store.columns(of: table)
            do {
                try store.forEachRow(of: table, columns: Array(columns.prefix(1))) { _ in throw Found() }
            } catch is Found {
                return table.name
            }
        }
        return nil
    }
}
