import Foundation

extension PostgresCatalogue {
    /// Starts a run (see `Catalogue.openRun`).
    public func openRun(command: String, model: ModelID, recipe: Recipe, counts: RunCounts, at date: Date) throws -> RunID {
        try connection.transaction {
            guard try connection.scalarInt("SELECT 1 FROM models WHERE id = :model", [":model": model]) != nil else {
                throw CatalogueError.notFound("no model with id \(model) in \(path)")
            }
            let id = try connection.scalarInt("""
                INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at, owner,
                                  seen, imported, classified, skipped, failed)
                VALUES (:command, :model, :recipe_name, :recipe_version, :started_at, :owner,
                        :seen, :imported, :classified, :skipped, :failed) RETURNING id
                """, [":command": command, ":model": model, ":recipe_name": recipe.name, ":recipe_version": recipe.version,
                      ":started_at": date.catalogueMilliseconds, ":owner": RunOwner.current, ":seen": counts.seen,
                      ":imported": counts.imported, ":classified": counts.classified, ":skipped": counts.skipped,
                      ":failed": counts.failed])
            return RunID(id ?? 0)
        }
    }

    /// Writes one batch of `run` in one transaction, with the run's counts as `body` returns
    /// them (see `Catalogue.writeBatch`): all of it, or on any error (the server gone
    /// included) none of it.
    public func writing(run: RunID, at date: Date, _ body: (any CatalogueBatch) throws -> RunCounts) throws {
        try connection.transaction {
            let batch = PostgresBatch(catalogue: self, context: try runContext(run), now: date.catalogueMilliseconds)
            let counts = try body(batch)
            try connection.execute("""
                UPDATE runs SET seen = :seen, imported = :imported, classified = :classified, skipped = :skipped, failed = :failed
                WHERE id = :run
                """, [":seen": counts.seen, ":imported": counts.imported, ":classified": counts.classified,
                      ":skipped": counts.skipped, ":failed": counts.failed, ":run": run])
        }
    }

    /// Records the end of a run, how it ended and what it did.
    public func closeRun(_ run: RunID, counts: RunCounts, outcome: RunOutcome, at date: Date) throws {
        try connection.transaction {
            let changed = try connection.execute("""
                UPDATE runs SET finished_at = :finished_at, outcome = :outcome, seen = :seen, imported = :imported, classified = :classified,
                                skipped = :skipped, failed = :failed
                WHERE id = :run
                """, [":finished_at": date.catalogueMilliseconds, ":outcome": outcome.rawValue, ":seen": counts.seen,
                      ":imported": counts.imported, ":classified": counts.classified, ":skipped": counts.skipped,
                      ":failed": counts.failed, ":run": run])
            guard changed == 1 else { throw CatalogueError.notFound("no run with id \(run) in \(path)") }
        }
    }

    /// Marks runs whose process died before closing them as interrupted (see
    /// `Catalogue.markAbandonedRuns`). A run of another machine is never judged gone.
    func markAbandonedRuns() throws -> [RunRecord] {
        let gone = try runs(where: "outcome IS NULL AND finished_at IS NULL").filter { RunOwner.isGone($0.owner) }
        guard !gone.isEmpty else { return [] }
        let marked: [RunID] = try connection.transaction {
            try gone.compactMap { run in
                let changed = try connection.execute("""
                    UPDATE runs SET outcome = 'interrupted',
                        classified = (SELECT count(*) FROM classifications WHERE run_id = :run),
                        failed = (SELECT count(*) FROM import_failures WHERE run_id = :run)
                    WHERE id = :run AND outcome IS NULL AND finished_at IS NULL
                    """, [":run": run.id])
                return changed == 1 ? run.id : nil
            }
        }
        return try marked.flatMap { try runs(where: "id = :value", [":value": $0]) }
    }

    func runs(where condition: String, _ arguments: PostgresArguments = [:]) throws -> [RunRecord] {
        try records("SELECT \(RunRecord.Columns.list) FROM runs WHERE \(condition) ORDER BY id", arguments,
                    as: RunRecord.Columns.self)
    }

    func runContext(_ run: RunID) throws -> Catalogue.RunContext {
        let found = try connection.query("SELECT model_id, recipe_name, recipe_version FROM runs WHERE id = :run", [":run": run])
        guard found.count == 1 else { throw CatalogueError.notFound("no run with id \(run) in \(path)") }
        let row = found.row(0)
        return Catalogue.RunContext(run: run, model: ModelID(row.int64("model_id")),
                                    recipe: Recipe(name: row.text("recipe_name"), version: row.int("recipe_version")))
    }
}
