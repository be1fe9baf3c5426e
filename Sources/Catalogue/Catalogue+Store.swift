import Foundation

/// The SQLite catalogue is the first `CatalogueStore`: most of its functions
/// are the protocol's as they are; these few say in the protocol's words what
/// only a file and its connections know.
extension Catalogue: CatalogueStore {
    public func writing(run: RunID, at date: Date, _ body: (any CatalogueBatch) throws -> RunCounts) throws {
        try writeBatch(of: run, at: date) { try body($0) }
    }
}

extension RunBatch: CatalogueBatch {}
