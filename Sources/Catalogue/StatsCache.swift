/// What `Catalogue.stats(cache:)` keeps between calls on one connection: the
/// counts, most of them kept by triggers (a few rows to read) but the agreement
/// walking every image a person labelled, taken again only when the catalogue
/// may have changed since.
///
/// The key is SQLite's own change detection. `PRAGMA data_version`, read
/// inside the snapshot the counts come from, moves whenever another
/// connection (of this process or of another, such as `wardrobe label`)
/// has committed; it does not move for the connection's own writes, so the
/// connection's count of rows it changed (`sqlite3_total_changes64`) is part
/// of the key too. Both values belong to one connection, so the cache holds
/// the connection it was filled on and starts over on any other.
///
/// Which runs are interrupted is not kept: it depends on whether their
/// processes still live, which no commit records.
public final class StatsCache {
    struct Key: Equatable {
        let dataVersion: Int64
        let ownChanges: Int64
    }

    private weak var connection: Catalogue?
    private var key: Key?
    private var kept: CatalogueStats?
    /// How many times kept counts were used instead of walking the catalogue.
    public private(set) var reuses = 0

    public init() {}

    /// The counts kept for `key` on `connection`, if any.
    func counts(for key: Key, on connection: Catalogue) -> CatalogueStats? {
        guard self.connection === connection, self.key == key, let kept else { return nil }
        reuses += 1
        return kept
    }

    func keep(_ counts: CatalogueStats, for key: Key, on connection: Catalogue) {
        self.connection = connection
        self.key = key
        kept = counts
    }
}
