import Foundation

/// Current classifications listed, counted and paged, and the history of an
/// image: `Catalogue+Listing`, `+Gallery` and `+History` in PostgreSQL's SQL.
/// SQLite's `CROSS JOIN` (which fixes its join order) is a plain join here,
/// `GLOB` a regular expression (`PostgresGlob`), `LIMIT -1` a NULL limit.
extension PostgresCatalogue {
    public func currentClassification(of image: ImageID) throws -> CurrentClassification? {
        var arguments: PostgresArguments = [:]
        let sql = Self.listingSelect(["c.image_id = \(arguments.add(image, as: "image"))"])
        arguments[":machine"] = machine
        return try records(sql, arguments, as: Catalogue.ListingColumns.self).first
    }

    public func forEachCurrentClassification(_ query: ClassificationQuery, _ body: (CurrentClassification) throws -> Void) throws {
        var (sql, arguments) = Self.listingSQL(query, count: false)
        arguments[":machine"] = machine
        try forEachRecord(sql, arguments, atMost: query.limit, as: Catalogue.ListingColumns.self) { classification, _ in
            try body(classification)
        }
    }

    public func countCurrentClassifications(_ query: ClassificationQuery) throws -> Int {
        let (sql, arguments) = Self.listingSQL(query, count: true)
        return Int(try connection.query(sql, arguments).row(0).optionalInt64(0) ?? 0)
    }

    /// One page of `query` (see `Catalogue.galleryPage`): per label a short walk down the
    /// (effective label, confidence) index, merged.
    public func galleryPage(_ query: GalleryQuery) throws -> [CurrentClassification] {
        var arguments: PostgresArguments = [:]
        let sql: String
        switch query.order {
        case .newest:
            var conditions = query.selection.postgresConditions(&arguments)
            if let after = query.after { conditions.append("c.image_id < \(arguments.add(after.image, as: "image"))") }
            sql = Self.listingSelect(conditions) + " ORDER BY c.image_id DESC LIMIT \(arguments.add(query.limit, as: "limit"))"
        case .uncertain, .confident:
            let direction = query.order == .uncertain ? "ASC" : "DESC"
            let labels = query.selection.label.map { [$0] } ?? Array(0...Catalogue.noneLabel)
            let parts = labels.enumerated().map { index, label -> String in
                var one = query.selection
                one.label = label
                var conditions = one.postgresConditions(&arguments)
                if let after = query.after {
                    let (loose, strict) = query.order == .uncertain ? (">=", ">") : ("<=", "<")
                    let confidence = arguments.add(after.confidence, as: "confidence")
                    conditions.append("c.confidence \(loose) \(confidence) AND (c.confidence \(strict) \(confidence) "
                                      + "OR c.image_id \(strict) \(arguments.add(after.image, as: "image")))")
                }
                return "SELECT * FROM (" + Self.listingSelect(conditions)
                    + " ORDER BY c.confidence \(direction), c.image_id \(direction) LIMIT \(arguments.add(query.limit, as: "limit"))) AS part\(index)"
            }
            sql = parts.joined(separator: " UNION ALL ")
                + " ORDER BY confidence \(direction), image_id \(direction) LIMIT \(arguments.add(query.limit, as: "limit"))"
        }
        arguments[":machine"] = machine
        return try records(sql, arguments, as: Catalogue.ListingColumns.self)
    }

    /// Images per effective label, from the counts the triggers keep.
    public func labelCounts() throws -> [Int: Int] {
        var total = 0
        return Dictionary(uniqueKeysWithValues: try rows("SELECT label, images FROM label_counts") { row in
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
        let result = try connection.query("""
            SELECT \(ClassificationColumns.list), r.command, r.outcome, r.owner, r.finished_at,
                   m.name AS model_name, m.version AS model_version
            FROM classifications AS c
            JOIN runs AS r ON r.id = c.run_id
            JOIN models AS m ON m.id = c.model_id
            WHERE c.image_id = :image ORDER BY c.id
            """, [":image": image])
        guard result.count > 0 else { return [] }
        let classification = ClassificationColumns(result.row(0))
        return try result.rows.map { row in
            HistoryEntry(classification: try classification.record(row), command: row.text("command"),
                         modelName: row.text("model_name"), modelVersion: row.text("model_version"),
                         runState: RunState(outcome: row.optionalText("outcome").flatMap(RunOutcome.init(rawValue:)),
                                            owner: row.optionalText("owner"), finished: !row.isNull("finished_at")))
        }
    }

    public func forEachClassificationWithHash(_ body: (ClassificationRecord, SHA256Digest) throws -> Void) throws {
        try forEachRecord("""
            SELECT \(ClassificationColumns.list), i.sha256
            FROM classifications AS c JOIN images AS i ON i.id = c.image_id ORDER BY c.id
            """, as: ClassificationColumns.self) { classification, row in try body(classification, try row.sha256("sha256")) }
    }

    /// The SQL of a listing or its count (see `Catalogue.listingSQL`).
    static func listingSQL(_ query: ClassificationQuery, count: Bool) -> (String, PostgresArguments) {
        var arguments: PostgresArguments = [:]
        let selection = query.selection
        let conditions = selection.postgresConditions(&arguments)
        if count, selection.choosesOnlyByLabel {
            // Counts by label are kept up to date by triggers: one row to read.
            if let label = selection.label {
                return ("SELECT coalesce((SELECT images FROM label_counts WHERE label = :label), 0)", [":label": label])
            }
            return ("SELECT coalesce(sum(images), 0)::bigint FROM label_counts", [:])
        }
        if count {
            let join = selection.readsImages ? "JOIN images AS i ON i.id = c.image_id" : ""
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return ("SELECT count(*) FROM current_classifications AS c \(join) \(whereClause)", arguments)
        }
        let order = Catalogue.listingOrder(query.order)
        // A NULL limit is no limit.
        let limit = arguments.add(query.limit, as: "limit"), offset = arguments.add(query.offset, as: "offset")
        return (listingSelect(conditions) + " ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)", arguments)
    }

    /// A listing's columns for the images meeting `conditions`; the best path is the first
    /// entry of image_paths_by_image_best for the image.
    private static func listingSelect(_ conditions: [String]) -> String {
        """
        SELECT \(Catalogue.ListingColumns.list)
        FROM current_classifications AS c JOIN images AS i ON i.id = c.image_id
        JOIN classifications AS k ON k.id = c.classification_id
        \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
        """
    }
}
