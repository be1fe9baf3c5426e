import Foundation

extension Catalogue {
    /// Starts a run: every classification it adds names it, its model and recipe.
    /// `counts` are the run's counts before it has done anything (what it is
    /// about to work through, seen and not done yet); each batch it writes
    /// through `writeBatch` brings them up to date.
    public func openRun(command: String, model: ModelID, recipe: Recipe, counts: RunCounts = RunCounts(),
                        at date: Date = Date()) throws -> RunID {
        try database.transaction {
            guard try database.scalarInt("SELECT 1 FROM models WHERE id = :model", [":model": model]) != nil else {
                throw CatalogueError.notFound("no model with id \(model) in \(path)")
            }
            try database.execute("""
                INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at, owner,
                                  seen, imported, classified, skipped, failed)
                VALUES (:command, :model, :recipe_name, :recipe_version, :started_at, :owner,
                        :seen, :imported, :classified, :skipped, :failed)
                """, counts.arguments(adding: [":command": command, ":model": model, ":recipe_name": recipe.name,
                                               ":recipe_version": recipe.version, ":started_at": date.catalogueMilliseconds,
                                               ":owner": RunOwner.current]))
            return RunID(database.lastInsertedRowID)
        }
    }

    /// Writes one batch of `run` in one transaction: what `body` stores through
    /// the batch, and the run's counts as `body` returns them (what the run has
    /// done, this batch included). So a run that ends without being closed
    /// (its process killed, or its close refused because another process held
    /// the catalogue's lock) still says what it did. Either all of it is
    /// stored or, on any error, none of it.
    public func writeBatch(of run: RunID, at date: Date = Date(), _ body: (RunBatch) throws -> RunCounts) throws {
        try database.transaction {
            let counts = try body(RunBatch(catalogue: self, context: try runContext(run), now: date.catalogueMilliseconds))
            try database.execute("""
                UPDATE runs SET seen = :seen, imported = :imported, classified = :classified, skipped = :skipped, failed = :failed
                WHERE id = :run
                """, counts.arguments(adding: [":run": run]))
        }
    }

    /// Records the end of a run, how it ended and what it did.
    public func closeRun(_ run: RunID, counts: RunCounts, outcome: RunOutcome = .finished,
                         at date: Date = Date()) throws {
        try database.transaction {
            try database.execute("""
                UPDATE runs SET finished_at = :finished_at, outcome = :outcome, seen = :seen, imported = :imported,
                                classified = :classified, skipped = :skipped, failed = :failed
                WHERE id = :run
                """, counts.arguments(adding: [":finished_at": date.catalogueMilliseconds, ":outcome": outcome.rawValue,
                                               ":run": run]))
            guard database.changes == 1 else { throw CatalogueError.notFound("no run with id \(run) in \(path)") }
        }
    }

    /// Marks every run whose process died before closing it (`kill -9`, a
    /// power cut, a close refused by another process's lock) as interrupted,
    /// leaving `finished_at` NULL and the counts its last batch wrote, with the
    /// classifications and failures it committed counted from their rows (runs
    /// of older builds wrote no counts before closing). Returns the runs
    /// this call marked: each is marked (and so reported) once, by whichever
    /// process gets there first.
    public func markAbandonedRuns() throws -> [RunRecord] {
        let open = try runs(where: "outcome IS NULL AND finished_at IS NULL", [:])
        let gone = open.filter { RunOwner.isGone($0.owner) }
        guard !gone.isEmpty else { return [] }
        var marked: [RunID] = []
        try database.transaction {
            for run in gone {
                try database.execute("""
                    UPDATE runs SET outcome = 'interrupted',
                        classified = (SELECT count(*) FROM classifications WHERE run_id = :run),
                        failed = (SELECT count(*) FROM import_failures WHERE run_id = :run)
                    WHERE id = :run AND outcome IS NULL AND finished_at IS NULL
                    """, [":run": run.id])
                if database.changes == 1 { marked.append(run.id) }
            }
        }
        return try marked.compactMap { try self.run($0) }
    }

    public func run(_ id: RunID) throws -> RunRecord? {
        try runs(where: "id = :id", [":id": id]).first
    }

    /// Every run, oldest first.
    public func runs() throws -> [RunRecord] {
        try runs(where: "1", [:])
    }

    private func runs(where condition: String, _ arguments: SQLArguments) throws -> [RunRecord] {
        try database.records("SELECT \(RunRecord.Columns.list) FROM runs WHERE \(condition) ORDER BY id", arguments,
                             as: RunRecord.Columns.self)
    }
}

extension RunCounts {
    /// The counts under the names of a run's columns (`:seen`, `:imported`, ...), with `others`.
    func arguments(adding others: SQLArguments) -> SQLArguments {
        var arguments = others
        arguments[":seen"] = seen
        arguments[":imported"] = imported
        arguments[":classified"] = classified
        arguments[":skipped"] = skipped
        arguments[":failed"] = failed
        return arguments
    }
}
