import Foundation

/// A classification's columns as a SELECT lists them (its table named `c`)
/// and the reader of them, side by side: every query that returns whole
/// classifications splices `list` into its SQL and reads rows with this.
/// The reader finds its columns by name once per statement, so the query may
/// put other columns before or after, and reads each row by index.
struct ClassificationColumns: RecordColumns {
    static let list = """
        c.id, c.image_id, c.run_id, c.model_id, c.recipe_name, c.recipe_version,
        c.logits, c.label, c.confidence, c.classified_at
        """

    private let id, image, run, model, recipeName, recipeVersion, logits, label, confidence, classifiedAt: Int32

    init(_ statement: some CatalogueRow) {
        id = statement.column("id")
        image = statement.column("image_id")
        run = statement.column("run_id")
        model = statement.column("model_id")
        recipeName = statement.column("recipe_name")
        recipeVersion = statement.column("recipe_version")
        logits = statement.column("logits")
        label = statement.column("label")
        confidence = statement.column("confidence")
        classifiedAt = statement.column("classified_at")
    }

    func record(_ row: some CatalogueRow) throws -> ClassificationRecord {
        // Named only when a value is refused: a string per row would cost every reader.
        let name = { "classification \(row.int64(id)) of image \(row.int64(image))" }
        return ClassificationRecord(
            id: ClassificationID(row.int64(id)), image: ImageID(row.int64(image)), run: RunID(row.int64(run)),
            model: ModelID(row.int64(model)), recipe: Recipe(name: row.text(recipeName), version: row.int(recipeVersion)),
            logits: try row.logits(logits, count: Catalogue.labelCount, row: name()),
            label: try row.label(label, upTo: Catalogue.labelCount - 1, row: name()),
            confidence: try row.confidence(confidence, row: name()),
            classifiedAt: try row.date(classifiedAt, row: name()))
    }
}
