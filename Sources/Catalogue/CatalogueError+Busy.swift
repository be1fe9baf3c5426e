import CSQLite

extension CatalogueError {
    /// True when another process held the catalogue's lock past the busy timeout (SQLite's
    /// `SQLITE_BUSY`): nothing is wrong with the catalogue or the request, and the same
    /// write may go through once that process is done.
    public var isBusy: Bool { sqliteCode == SQLITE_BUSY }
}
