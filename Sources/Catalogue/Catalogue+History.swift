import Foundation

extension Catalogue {
    /// Every classification of an image, oldest first, with its run's command and model.
    public func history(of image: ImageID) throws -> [HistoryEntry] {
        try database.rows("""
            SELECT \(Catalogue.classificationColumns), r.command, m.name, m.version
            FROM classifications AS c
            JOIN runs AS r ON r.id = c.run_id
            JOIN models AS m ON m.id = c.model_id
            WHERE c.image_id = ? ORDER BY c.id
            """, [image]) { row in
            HistoryEntry(classification: Catalogue.classificationRecord(row),
                         command: row.text(10), modelName: row.text(11), modelVersion: row.text(12))
        }
    }

    /// Every classification ever stored, in the order they were made, one row
    /// in memory at a time. `body` must not write to this catalogue.
    public func forEachClassification(_ body: (ClassificationRecord) throws -> Void) throws {
        let statement = try database.prepare(
            "SELECT \(Catalogue.classificationColumns) FROM classifications AS c ORDER BY c.id")
        while try statement.step() {
            try body(Catalogue.classificationRecord(statement))
        }
    }

    static let classificationColumns = """
        c.id, c.image_id, c.run_id, c.model_id, c.recipe_name, c.recipe_version,
        c.logits, c.label, c.confidence, c.classified_at
        """

    static func classificationRecord(_ row: Statement) -> ClassificationRecord {
        ClassificationRecord(
            id: ClassificationID(row.int64(0)), image: ImageID(row.int64(1)), run: RunID(row.int64(2)),
            model: ModelID(row.int64(3)), recipe: Recipe(name: row.text(4), version: row.int(5)),
            logits: row.withBlob(6) { Catalogue.floats(littleEndian: $0) },
            label: row.int(7), confidence: row.double(8),
            classifiedAt: Date(catalogueMilliseconds: row.int64(9)))
    }
}
