import Files
import Foundation

/// Models, their adoption, and files that failed to import: `Catalogue+Models`,
/// `+ModelAgreement`, `+Settings` and `+Failures` in PostgreSQL's SQL.
extension PostgresCatalogue {
    /// Registers a model with the images it learned from (see `Catalogue.registerModel`).
    public func registerModel(_ model: NewModel, at date: Date) throws -> ModelID {
        let labels = String(decoding: try JSONEncoder().encode(model.labels), as: UTF8.self)
        return try connection.transaction {
            try connection.execute("""
                INSERT INTO models (name, version, sha256, labels, parameter_count, registered_at)
                VALUES (:name, :version, :sha256, :labels, :parameter_count, :registered_at) ON CONFLICT (sha256) DO NOTHING
                """, [":name": model.name, ":version": model.version, ":sha256": model.sha256.bytes, ":labels": labels,
                      ":parameter_count": model.parameterCount, ":registered_at": date.catalogueMilliseconds])
            guard let id = try connection.scalarInt("SELECT id FROM models WHERE sha256 = :sha256",
                                                    [":sha256": model.sha256.bytes]) else {
                throw CatalogueError.notFound("model \(model.sha256.hex) vanished after registering")
            }
            try insertLearnedImages(model.learnedImages, of: id)
            return ModelID(id)
        }
    }

    /// As SQLite's: only when some are not kept yet (every run registers its model, so a model
    /// that learned from 200,000 images sent 200,000 statements at each command's start), and
    /// then a thousand rows a statement, not one.
    private func insertLearnedImages(_ hashes: [SHA256Digest], of id: Int64) throws {
        guard !hashes.isEmpty,
              try connection.scalarInt("SELECT count(*) FROM model_learned_images WHERE model_id = :id", [":id": id]) ?? 0
                < hashes.count else { return }
        for start in stride(from: 0, to: hashes.count, by: 1000) {
            var parameters = PostgresParameters()
            let model = parameters.add(id)
            let rows = hashes[start..<min(start + 1000, hashes.count)].map { "(\(model), \(parameters.add($0.bytes)))" }
            try connection.query(numbered: "INSERT INTO model_learned_images (model_id, sha256) VALUES "
                                 + rows.joined(separator: ", ") + " ON CONFLICT DO NOTHING", parameters)
        }
    }

    public func model(_ id: ModelID) throws -> ModelRecord? {
        try models(where: "id = :id", [":id": id]).first
    }

    public func models() throws -> [ModelRecord] {
        try models(where: "true", [:])
    }

    private func models(where condition: String, _ arguments: PostgresArguments) throws -> [ModelRecord] {
        try records("SELECT \(ModelRecord.Columns.list) FROM models WHERE \(condition) ORDER BY id", arguments,
                    as: ModelRecord.Columns.self)
    }

    /// Every model with its adoption and its agreement with the person's labels it did not
    /// learn from (see `Catalogue.modelStandings`).
    public func modelStandings() throws -> [ModelStanding] {
        let adopted = Dictionary(uniqueKeysWithValues: try rows(ModelStanding.adoptionsSQL) { try ModelStanding.adoption($0) })
        let agreement = Dictionary(uniqueKeysWithValues: try rows("""
            \(ModelStanding.latestOfLabelledSQL)
            SELECT t.model_id, count(*) FILTER (WHERE NOT t.learned) AS labelled,
                   count(*) FILTER (WHERE NOT t.learned AND c.label = t.person) AS agreeing,
                   count(*) FILTER (WHERE t.learned) AS learned
            FROM latest AS t JOIN classifications AS c ON c.id = t.classification
            GROUP BY t.model_id
            """) { row in
            (ModelID(row.int64("model_id")), (labelled: row.int("labelled"), agreeing: row.int("agreeing"), learned: row.int("learned")))
        })
        return try models().map { model in
            let counts = agreement[model.id] ?? (0, 0, 0)
            return ModelStanding(model: model, lastAdopted: adopted[model.id], labelledImages: counts.labelled,
                                 agreeing: counts.agreeing, learnedFrom: counts.learned)
        }
    }

    public func adoptModel(_ model: ModelID?, file: [UInt8]?, sourcePath: String?, command: String, at date: Date) throws -> Int64 {
        try connection.transaction {
            try connection.scalarInt("""
                INSERT INTO model_adoptions (model_id, file, source_path, command, adopted_at)
                VALUES (:model, :file, :source_path, :command, :at)
                RETURNING id
                """, [":model": model, ":file": file, ":source_path": sourcePath, ":command": command,
                      ":at": date.catalogueMilliseconds]) ?? 0
        }
    }

    public func adoptedModel() throws -> ModelAdoption? {
        try rows("""
            SELECT id, model_id, source_path, command, adopted_at FROM model_adoptions ORDER BY id DESC LIMIT 1
            """) { row in
            ModelAdoption(id: row.int64("id"), model: row.optionalInt64("model_id").map { ModelID($0) },
                          sourcePath: row.optionalText("source_path"), command: row.text("command"),
                          adoptedAt: try row.date("adopted_at", row: "model adoption \(row.int64("id"))"))
        }.first
    }

    public func adoptedModelFile(_ adoption: Int64) throws -> [UInt8]? {
        try rows("SELECT file FROM model_adoptions WHERE id = :adoption",
                 [":adoption": adoption]) { $0.optionalBlob("file") }.first ?? nil
    }

    /// One more entry in the log of attempts and the path's row among the failing files, inside
    /// the caller's transaction (see `Catalogue.storeFailure`).
    func storeFailure(path: String, reason: String, run: RunID?, file: SeenFile?, now: Int64) throws {
        let display = PathName.display(path), exact = PathName.exactBytes(of: path)
        try connection.execute("""
            INSERT INTO import_failures (path, reason, run_id, failed_at, size, mtime_ns, path_bytes)
            VALUES (:path, :reason, :run, :now, :size, :mtime_ns, :path_bytes)
            """, [":path": display, ":reason": reason, ":run": run, ":now": now, ":size": file?.size,
                  ":mtime_ns": file?.modificationTimeNanoseconds, ":path_bytes": exact])
        try connection.execute("""
            INSERT INTO failing_files AS f (machine, path, size, mtime_ns, reason, run_id, first_failed, last_failed,
                                            attempts, path_bytes)
            VALUES (:machine, :path, :size, :mtime_ns, :reason, :run, :now, :now, 1, :path_bytes)
            ON CONFLICT (machine, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                reason = excluded.reason, run_id = excluded.run_id, last_failed = excluded.last_failed,
                attempts = f.attempts + 1
            WHERE f.path_bytes IS NOT DISTINCT FROM excluded.path_bytes
            """, [":machine": machine, ":path": display, ":size": file?.size,
                  ":mtime_ns": file?.modificationTimeNanoseconds, ":reason": reason, ":run": run, ":now": now,
                  ":path_bytes": exact])
    }

    public func failingFile(_ path: String) throws -> FailingFile? {
        try failingFiles(where: "machine = :machine AND path = :path AND path_bytes IS NOT DISTINCT FROM :path_bytes",
                         [":machine": machine, ":path": PathName.display(path),
                          ":path_bytes": PathName.exactBytes(of: path)]).first
    }

    public func failingFiles(under folder: String?) throws -> [FailingFile] {
        guard let folder else { return try failingFiles(where: "true", [:]) }
        let (low, high) = Catalogue.range(under: PathName.display(folder))
        return try failingFiles(where: "machine = :machine AND path > :low AND path < :high",
                                [":machine": machine, ":low": low, ":high": high])
    }

    public func stopFailing(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try connection.transaction {
            for path in paths {
                try connection.execute("DELETE FROM failing_files WHERE machine = :machine AND path = :path",
                                       [":machine": machine, ":path": PathName.display(path)])
            }
        }
    }

    private func failingFiles(where condition: String, _ arguments: PostgresArguments) throws -> [FailingFile] {
        try records("SELECT \(FailingFile.Columns.list) FROM failing_files WHERE \(condition) ORDER BY path, machine", arguments,
                    as: FailingFile.Columns.self)
    }
}
