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
    /// snapshot `read` opened.
    private func countEverything() throws -> CatalogueStats {
        func count(_ sql: String) throws -> Int {
            Int(try database.scalarInt(sql) ?? 0)
        }
        let labels = try database.rows(Self.labelStatsSQL) { try CatalogueStats.labelStats($0) }
        // An image whose label the current classification's model learned from is left out:
        // agreeing with an answer it was taught says nothing of the model.
        let agreement = try database.rows("""
            SELECT corrected_label, sum(NOT learned) AS labelled, sum(NOT learned AND label = corrected_label) AS agreed,
                   sum(learned) AS learned_from
            FROM (SELECT c.corrected_label, c.label,
                         EXISTS (SELECT 1 FROM model_learned_images AS m JOIN images AS i ON i.sha256 = m.sha256
                                 WHERE m.model_id = c.model_id AND i.id = c.image_id) AS learned
                  FROM current_classifications AS c
                  WHERE c.corrected_label IS NOT NULL AND c.corrected_label != ?)
            GROUP BY corrected_label ORDER BY corrected_label
            """, [Catalogue.noneLabel]) {
            CatalogueStats.Agreement(label: $0.int("corrected_label"), labelled: $0.int("labelled"), agreed: $0.int("agreed"),
                                     learnedFrom: $0.int("learned_from"))
        }
        return try CatalogueStats(counting: count, interruptedRuns: 0, labels: labels, agreement: agreement)
    }

    /// Per effective label: its images and the mean confidence, which is the model's in the
    /// label itself: an image a person gave another label counts, but its confidence (in the
    /// model's label) does not. Read from the index on (effective_label, confidence), never
    /// the table: asking each image whether its label is the model's took a lookup per image
    /// (2.6 s on 1,000,000 images, against 0.1 s). So the sum is taken over every image of the
    /// label and the images a person moved to it from another label (few; found through
    /// `current_corrected`) are taken out of it afterwards. That can leave a mean a rounding
    /// off 0...1, so one within 1e-9 of the range is clamped to it; one farther out was
    /// stored by another program and is refused as it was.
    static let labelStatsSQL = """
        SELECT effective_label, images,
               CASE WHEN mean BETWEEN -1e-9 AND 1 + 1e-9 THEN max(0.0, min(1.0, mean)) ELSE mean END AS mean_confidence
        FROM (SELECT e.effective_label, e.images,
                     (e.total - coalesce(m.total, 0)) / nullif(e.images - coalesce(m.images, 0), 0) AS mean
              FROM (SELECT effective_label, count(*) AS images, total(confidence) AS total
                    FROM current_classifications GROUP BY effective_label) AS e
              LEFT JOIN (SELECT corrected_label AS effective_label, count(*) AS images, total(confidence) AS total
                         FROM current_classifications
                         WHERE corrected_label IS NOT NULL AND corrected_label != label
                         GROUP BY corrected_label) AS m USING (effective_label))
        ORDER BY effective_label
        """

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
