import Foundation

extension Catalogue {
    /// Every classification of an image, oldest first, with its run's command and model.
    public func history(of image: ImageID) throws -> [HistoryEntry] {
        let sql = """
            SELECT \(ClassificationColumns.list), r.command, r.outcome, r.owner, r.finished_at, m.name AS model_name, m.version AS model_version
            FROM classifications AS c
            JOIN runs AS r ON r.id = c.run_id
            JOIN models AS m ON m.id = c.model_id
            WHERE c.image_id = :image ORDER BY c.id
            """
        let statement = try database.cachedStatement(sql)
        let classification = ClassificationColumns(statement)
        let command = statement.column("command")
        let outcome = statement.column("outcome")
        let owner = statement.column("owner")
        let finishedAt = statement.column("finished_at")
        let modelName = statement.column("model_name")
        let modelVersion = statement.column("model_version")
        return try database.rows(sql, [":image": image]) { row in
            HistoryEntry(classification: try classification.record(row), command: row.text(command),
                         modelName: row.text(modelName), modelVersion: row.text(modelVersion),
                         runState: RunState(outcome: row.isNull(outcome) ? nil : RunOutcome(rawValue: row.text(outcome)),
                                            owner: row.isNull(owner) ? nil : row.text(owner),
                                            finished: !row.isNull(finishedAt)))
        }
    }
}
