import Foundation

/// The PostgreSQL catalogue is the second `CatalogueStore`. Its counts are read
/// afresh each time, most of them as the triggers keep them: `StatsCache` keys on
/// SQLite's own change counters (`PRAGMA data_version`), which PostgreSQL has no
/// counterpart of, so a cache handed in is left unused.
extension PostgresCatalogue: CatalogueStore {
    public func stats(cache: StatsCache?) throws -> CatalogueStats {
        try read {
            let agreement = try rows("""
                SELECT corrected_label, count(*) FILTER (WHERE NOT learned) AS labelled,
                       count(*) FILTER (WHERE NOT learned AND label = corrected_label) AS agreed,
                       count(*) FILTER (WHERE learned) AS learned
                FROM (SELECT c.corrected_label, c.label,
                             EXISTS (SELECT 1 FROM model_learned_images AS m JOIN images AS i ON i.sha256 = m.sha256
                                     WHERE m.model_id = c.model_id AND i.id = c.image_id) AS learned
                      FROM current_classifications AS c
                      WHERE c.corrected_label IS NOT NULL AND c.corrected_label != :none_label) AS labelled
                GROUP BY corrected_label ORDER BY corrected_label
                """, [":none_label": Catalogue.noneLabel]) { row in
                CatalogueStats.Agreement(label: row.int("corrected_label"), labelled: row.int("labelled"),
                                         agreed: row.int("agreed"), learnedFrom: row.int("learned"))
            }
            let owners = try rows("SELECT owner FROM runs WHERE outcome IS NULL AND finished_at IS NULL") {
                $0.optionalText("owner")
            }
            // The few models and runs counted in one round trip.
            let small = try connection.query("""
                SELECT (SELECT count(*) FROM models) AS models, (SELECT count(*) FROM runs) AS runs,
                       (SELECT count(*) FROM runs WHERE outcome = 'interrupted') AS interrupted
                """).row(0)
            return CatalogueStats(kept: try keptCounts(), models: small.int("models"), runs: small.int("runs"),
                                  interruptedRuns: small.int("interrupted") + owners.filter(RunOwner.isGone).count,
                                  agreement: agreement)
        }
    }
}

extension PostgresCatalogue: KeptCountsReader {
    func countRows<T>(_ sql: String, _ body: (PostgresRow) throws -> T) throws -> [T] { try rows(sql, [:], body) }

    func billionths(_ confidence: String) -> String { "floor(\(confidence) * 1e9 + 0.5)::bigint" }
}
