import Foundation

/// The SQLite catalogue is the first `CatalogueStore`: its functions are the
/// protocol's as they are, but for a run's batch, which the protocol hands out
/// as any `CatalogueBatch` (another engine's batch is its own type).
extension Catalogue: CatalogueStore {
    public var location: String { path }

    public func writing(run: RunID, at date: Date, _ body: (any CatalogueBatch) throws -> RunCounts) throws {
        try writeBatch(of: run, at: date) { try body($0) }
    }
}

extension RunBatch: CatalogueBatch {}
