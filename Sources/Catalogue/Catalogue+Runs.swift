import Foundation

extension Catalogue {
    /// Starts a run: every classification it adds names it, its model and recipe.
    public func openRun(command: String, model: ModelID, recipe: Recipe, at date: Date = Date()) throws -> RunID {
        try database.transaction {
            guard try database.scalarInt("SELECT 1 FROM models WHERE id = ?", model) != nil else {
                throw CatalogueError.notFound("no model with id \(model) in \(path)")
            }
            try database.execute("""
                INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at)
                VALUES (?, ?, ?, ?, ?)
                """, command, model, recipe.name, recipe.version, date.catalogueMilliseconds)
            return RunID(database.lastInsertedRowID)
        }
    }

    /// Records the end of a run and what it did.
    public func closeRun(_ run: RunID, counts: RunCounts, at date: Date = Date()) throws {
        try database.transaction {
            try database.execute("""
                UPDATE runs SET finished_at = ?, outcome = 'finished', seen = ?, imported = ?, classified = ?, skipped = ?, failed = ?
                WHERE id = ?
                """, date.catalogueMilliseconds, counts.seen, counts.imported, counts.classified,
                counts.skipped, counts.failed, run)
            guard database.changes == 1 else { throw CatalogueError.notFound("no run with id \(run) in \(path)") }
        }
    }

    public func run(_ id: RunID) throws -> RunRecord? {
        try runs(where: "id = ?", [id]).first
    }

    /// Every run, oldest first.
    public func runs() throws -> [RunRecord] {
        try runs(where: "1", [])
    }

    private func runs(where condition: String, _ values: [(any SQLBindable)?]) throws -> [RunRecord] {
        try database.rows("""
            SELECT id, command, model_id, recipe_name, recipe_version, started_at, finished_at,
                   seen, imported, classified, skipped, failed
            FROM runs WHERE \(condition) ORDER BY id
            """, values) { row in
            RunRecord(id: RunID(row.int64(0)), command: row.text(1), model: ModelID(row.int64(2)),
                      recipe: Recipe(name: row.text(3), version: row.int(4)),
                      startedAt: Date(catalogueMilliseconds: row.int64(5)),
                      finishedAt: row.isNull(6) ? nil : Date(catalogueMilliseconds: row.int64(6)),
                      counts: RunCounts(seen: row.int(7), imported: row.int(8), classified: row.int(9),
                                        skipped: row.int(10), failed: row.int(11)))
        }
    }
}
