import Foundation

/// Current classifications listed, counted and paged, and the history of an
/// image: `Catalogue+Listing`, `+Gallery` and `+History` in PostgreSQL's SQL.
/// SQLite's `CROSS JOIN` (which fixes its join order) is a plain join here,
/// `GLOB` a regular expression (`PostgresGlob`), `LIMIT -1` a NULL limit.
extension PostgresCatalogue {
    public func currentClassification(of image: ImageID) throws -> CurrentClassification? {
        var parameters = PostgresParameters()
        let sql = Self.listingSelect(["c.image_id = \(parameters.add(image))"])
        return try rows(sql, parameters.values, Self.listingRow).first
    }

    public func forEachCurrentClassification(_ query: ClassificationQuery, _ body: (CurrentClassification) throws -> Void) throws {
        let (sql, values) = Self.listingSQL(query, count: false)
        try forEachRow(sql, values) { try body(try Self.listingRow($0)) }
    }

    public func countCurrentClassifications(_ query: ClassificationQuery) throws -> Int {
        let (sql, values) = Self.listingSQL(query, count: true)
        return Int(try connection.query(sql, values).row(0).optionalInt64(at: 0) ?? 0)
    }

    /// One page of `query` (see `Catalogue.galleryPage`): per label a short walk down the
    /// (effective label, confidence) index, merged.
    public func galleryPage(_ query: GalleryQuery) throws -> [CurrentClassification] {
        var parameters = PostgresParameters()
        let sql: String
        switch query.order {
        case .newest:
            var conditions = query.selection.postgresConditions(&parameters)
            if let after = query.after { conditions.append("c.image_id < \(parameters.add(after.image))") }
            sql = Self.listingSelect(conditions) + " ORDER BY c.image_id DESC LIMIT \(parameters.add(query.limit))"
        case .uncertain, .confident:
            let direction = query.order == .uncertain ? "ASC" : "DESC"
            let labels = query.selection.label.map { [$0] } ?? Array(0...Catalogue.noneLabel)
            let parts = labels.enumerated().map { index, label -> String in
                var one = query.selection
                one.label = label
                var conditions = one.postgresConditions(&parameters)
                if let after = query.after {
                    let (loose, strict) = query.order == .uncertain ? (">=", ">") : ("<=", "<")
                    let confidence = parameters.add(after.confidence)
                    conditions.append("c.confidence \(loose) \(confidence) AND (c.confidence \(strict) \(confidence) "
                                      + "OR c.image_id \(strict) \(parameters.add(after.image)))")
                }
                return "SELECT * FROM (" + Self.listingSelect(conditions)
                    + " ORDER BY c.confidence \(direction), c.image_id \(direction) LIMIT \(parameters.add(query.limit))) AS part\(index)"
            }
            sql = parts.joined(separator: " UNION ALL ")
                + " ORDER BY confidence \(direction), image_id \(direction) LIMIT \(parameters.add(query.limit))"
        }
        return try rows(sql, parameters.values, Self.listingRow)
    }

    /// Images per effective label, from the counts the triggers keep.
    public func labelCounts() throws -> [Int: Int] {
        var total = 0
        return Dictionary(uniqueKeysWithValues: try rows("SELECT label, images FROM current_label_counts") { row in
            let count = row.int("images")
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard count >= 0, !overflow else {
                throw CatalogueError.strangeValue(path: path, detail: "the image count of label \(row.text("label")): "
                                                    + "\(row.text("images")), where the counts of all labels add up to 0 to \(Int.max)")
            }
            total = sum
            return (row.int("label"), count)
        })
    }

    public func history(of image: ImageID) throws -> [HistoryEntry] {
        try rows("""
            SELECT \(ClassificationColumns.list), r.command, r.outcome, r.owner, r.finished_at,
                   m.name AS model_name, m.version AS model_version
            FROM classifications AS c
            JOIN runs AS r ON r.id = c.run_id
            JOIN models AS m ON m.id = c.model_id
            WHERE c.image_id = $1 ORDER BY c.id
            """, [image]) { row in
            HistoryEntry(classification: try classificationRecord(row), command: row.text("command"),
                         modelName: row.text("model_name"), modelVersion: row.text("model_version"),
                         runState: RunState(outcome: row.optionalText("outcome").flatMap(RunOutcome.init(rawValue:)),
                                            owner: row.optionalText("owner"), finished: !row.isNull("finished_at")))
        }
    }

    public func forEachClassificationWithHash(_ body: (ClassificationRecord, SHA256Digest) throws -> Void) throws {
        try forEachRow("""
            SELECT \(ClassificationColumns.list), i.sha256
            FROM classifications AS c JOIN images AS i ON i.id = c.image_id ORDER BY c.id
            """) { row in try body(try classificationRecord(row), try row.sha256("sha256")) }
    }

    /// A classification's columns as `ClassificationColumns.list` names them.
    func classificationRecord(_ row: PostgresRow) throws -> ClassificationRecord {
        let name = "classification \(row.int64("id")) of image \(row.int64("image_id"))"
        return ClassificationRecord(
            id: ClassificationID(row.int64("id")), image: ImageID(row.int64("image_id")), run: RunID(row.int64("run_id")),
            model: ModelID(row.int64("model_id")),
            recipe: Recipe(name: row.text("recipe_name"), version: row.int("recipe_version")),
            logits: try row.logits("logits", count: Catalogue.labelCount, row: name),
            label: try row.label("label", upTo: Catalogue.labelCount - 1, row: name),
            confidence: try row.confidence("confidence", row: name),
            classifiedAt: try row.date("classified_at", row: name))
    }

    /// The SQL of a listing or its count (see `Catalogue.listingSQL`).
    static func listingSQL(_ query: ClassificationQuery, count: Bool) -> (String, [(any PostgresBindable)?]) {
        var parameters = PostgresParameters()
        let selection = query.selection
        let conditions = selection.postgresConditions(&parameters)
        if count, selection.choosesOnlyByLabel {
            // Counts by label are kept up to date by triggers: one row to read.
            if let label = selection.label {
                return ("SELECT coalesce((SELECT images FROM current_label_counts WHERE label = $1), 0)", [label])
            }
            return ("SELECT coalesce(sum(images), 0)::bigint FROM current_label_counts", [])
        }
        if count {
            let join = selection.readsImages ? "JOIN images AS i ON i.id = c.image_id" : ""
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return ("SELECT count(*) FROM current_classifications AS c \(join) \(whereClause)", parameters.values)
        }
        let order = switch query.order {
        case .confidenceDescending: "c.confidence DESC, c.image_id DESC"
        case .confidenceAscending: "c.confidence ASC, c.image_id ASC"
        case .newestClassified: "c.classified_at DESC, c.image_id DESC"
        case .newestImported: "i.first_imported DESC, c.image_id DESC"
        case .oldestImported: "i.first_imported ASC, c.image_id ASC"
        case .newestTaken: "i.taken_at IS NULL, i.taken_at DESC, c.image_id DESC"
        case .imageID: "c.image_id ASC"
        case .effectiveLabel: "c.effective_label ASC, c.confidence DESC, c.image_id DESC"
        }
        // A NULL limit is no limit.
        let limit = parameters.add(query.limit), offset = parameters.add(query.offset)
        return (listingSelect(conditions) + " ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)", parameters.values)
    }

    /// A listing's columns for the images meeting `conditions`; the best path is the first
    /// entry of image_paths_by_image_best for the image.
    private static func listingSelect(_ conditions: [String]) -> String {
        """
        SELECT c.image_id, i.sha256, c.classification_id, c.model_id, c.label, c.confidence,
               c.classified_at, i.first_imported, i.taken_at, i.taken_offset, i.colour, i.colours, i.colour_on_garment,
               i.width, i.height, i.format,
               (SELECT path FROM image_paths WHERE image_id = c.image_id
                ORDER BY missing, last_seen DESC, path DESC LIMIT 1) AS path,
               (SELECT min(missing) FROM image_paths WHERE image_id = c.image_id) AS path_missing,
               c.corrected_label, k.recipe_name, k.recipe_version
        FROM current_classifications AS c JOIN images AS i ON i.id = c.image_id
        JOIN classifications AS k ON k.id = c.classification_id
        \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
        """
    }

    /// A row of `listingSelect`, read by the names it gives its columns.
    private static func listingRow(_ row: PostgresRow) throws -> CurrentClassification {
        let name = "the current classification of image \(row.int64("image_id"))"
        return CurrentClassification(
            image: ImageID(row.int64("image_id")), sha256: try row.sha256("sha256"),
            classification: ClassificationID(row.int64("classification_id")), model: ModelID(row.int64("model_id")),
            recipe: Recipe(name: row.text("recipe_name"), version: row.int("recipe_version")),
            label: try row.label("label", upTo: Catalogue.labelCount - 1, row: name),
            confidence: try row.confidence("confidence", row: name),
            classifiedAt: try row.date("classified_at", row: name),
            firstImported: try row.date("first_imported", row: name),
            taken: try row.takenTime("taken_at", "taken_offset", row: name),
            colours: try row.storedColours("colour", "colours", "colour_on_garment", row: name),
            width: row.int("width"), height: row.int("height"), format: row.text("format"),
            path: row.optionalText("path"), pathMissing: !row.isNull("path_missing") && row.int("path_missing") != 0,
            correctedLabel: try row.optionalLabel("corrected_label", upTo: Catalogue.noneLabel, row: name))
    }
}

/// Parameters gathered while SQL is built: each `add` returns its placeholder (`$3`).
struct PostgresParameters {
    private(set) var values: [(any PostgresBindable)?] = []

    mutating func add(_ value: (any PostgresBindable)?) -> String {
        values.append(value)
        return "$\(values.count)"
    }
}
