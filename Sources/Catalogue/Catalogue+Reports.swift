import Foundation

extension Catalogue {
    /// Totals; per effective label the image count and mean confidence; and
    /// per person label how often the model agrees. With a `cache` (one per
    /// connection; see `StatsCache`), the counts are taken again only when
    /// something was committed since the cache was filled.
    public func stats(cache: StatsCache? = nil) throws -> CatalogueStats {
        try read {
            var stats: CatalogueStats
            if let cache {
                let key = StatsCache.Key(dataVersion: try database.scalarInt("PRAGMA data_version") ?? 0,
                                         ownChanges: database.totalChanges)
                if let kept = cache.counts(for: key, on: self) {
                    stats = kept
                } else {
                    stats = try countEverything()
                    cache.keep(stats, for: key, on: self)
                }
            } else {
                stats = try countEverything()
            }
            stats.interruptedRuns = try interruptedRuns()
            return stats
        }
    }

    /// Every count of `stats()` that the catalogue's rows decide, in the
    /// snapshot `read` opened: the kept ones read, the others counted.
    private func countEverything() throws -> CatalogueStats {
        func count(_ sql: String) throws -> Int {
            Int(try database.scalarInt(sql) ?? 0)
        }
        // An image whose label the current classification's model learned from is left out:
        // agreeing with an answer it was taught says nothing of the model.
        let agreement = try database.rows("""
            SELECT corrected_label, sum(NOT learned) AS labelled, sum(NOT learned AND label = corrected_label) AS agreed,
                   sum(learned) AS learned_from
            FROM (SELECT c.corrected_label, c.label,
                         EXISTS (SELECT 1 FROM model_learned_images AS m JOIN images AS i ON i.sha256 = m.sha256
                                 WHERE m.model_id = c.model_id AND i.id = c.image_id) AS learned
                  FROM current_classifications AS c
                  WHERE c.corrected_label IS NOT NULL AND c.corrected_label != :none)
            GROUP BY corrected_label ORDER BY corrected_label
            """, [":none": Catalogue.noneLabel]) {
            CatalogueStats.Agreement(label: $0.int("corrected_label"), labelled: $0.int("labelled"), agreed: $0.int("agreed"),
                                     learnedFrom: $0.int("learned_from"))
        }
        return CatalogueStats(kept: try database.keptCounts(), models: try count("SELECT count(*) FROM models"),
                              runs: try count("SELECT count(*) FROM runs"), interruptedRuns: 0, agreement: agreement)
    }

    /// Runs marked interrupted, and unmarked ones whose process is gone: asked
    /// afresh every time, since a process can end without a commit.
    private func interruptedRuns() throws -> Int {
        let marked = Int(try database.scalarInt("SELECT count(*) FROM runs WHERE outcome = 'interrupted'") ?? 0)
        let owners: [String?] = try database.rows("SELECT owner FROM runs WHERE outcome IS NULL AND finished_at IS NULL") {
            $0.optionalText("owner")
        }
        return marked + owners.filter(RunOwner.isGone).count
    }
}

extension Database: KeptCountsReader {
    func countRows<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> [T] { try rows(sql, [:], body) }

    func billionths(_ confidence: String) -> String { "CAST(\(confidence) * 1e9 + 0.5 AS INTEGER)" }
}
