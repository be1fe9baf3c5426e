import Foundation

extension Catalogue {
    /// Images with their current classification, filtered, sorted and paged.
    /// With a label and the default order this is a walk down the
    /// (effective label, confidence) index: its cost does not grow with the
    /// catalogue, whether or not corrections are in play.
    public func currentClassifications(_ query: ClassificationQuery = ClassificationQuery()) throws -> [CurrentClassification] {
        let (sql, arguments) = Catalogue.listingSQL(query, count: false, machine: machine)
        return try database.records(sql, arguments, as: ListingColumns.self)
    }

    /// How many images `currentClassifications` would list without limit and offset.
    public func countCurrentClassifications(_ query: ClassificationQuery = ClassificationQuery()) throws -> Int {
        let (sql, arguments) = Catalogue.listingSQL(query, count: true, machine: machine)
        return Int(try database.scalarInt(sql, arguments) ?? 0)
    }

    /// Calls `body` for each matching current classification, one row in
    /// memory at a time (for exports of any size), inside one snapshot.
    /// `body` must not write to this catalogue.
    public func forEachCurrentClassification(_ query: ClassificationQuery = ClassificationQuery(),
                                             _ body: (CurrentClassification) throws -> Void) throws {
        let (sql, arguments) = Catalogue.listingSQL(query, count: false, machine: machine)
        // Its own statement, not the cache: `body` may run other queries.
        let statement = try database.prepare(sql)
        let columns = ListingColumns(statement)
        try statement.bind(arguments)
        while try statement.step() {
            try body(try columns.record(statement))
        }
    }

    /// SQLite's plan for a listing (or its count), one line per step: how
    /// to see that a query walks an index instead of scanning a table.
    public func queryPlan(_ query: ClassificationQuery, counting: Bool = false) throws -> [String] {
        let (sql, arguments) = Catalogue.listingSQL(query, count: counting, machine: machine)
        return try database.rows("EXPLAIN QUERY PLAN " + sql, arguments) { $0.text("detail") }
    }

    /// The SQL for a listing or a count. Filters become bound parameters;
    /// only the shape of the SQL varies, so each shape is prepared once. A listing names
    /// `machine`'s paths first (see `ListingColumns`).
    static func listingSQL(_ query: ClassificationQuery, count: Bool, machine: String) -> (String, SQLArguments) {
        var arguments: SQLArguments = [:]
        let selection = query.selection
        let conditions = selection.conditions(&arguments)
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        if count, selection.choosesOnlyByLabel {
            // Counts by label are kept up to date by triggers: one row to read.
            if let label = selection.label {
                return ("SELECT coalesce((SELECT images FROM label_counts WHERE label = :label), 0)", [":label": label])
            }
            return ("SELECT coalesce(sum(images), 0) FROM label_counts", [:])
        }
        if count {
            let join = selection.readsImages ? "CROSS JOIN images AS i ON i.id = c.image_id" : ""
            return ("SELECT count(*) FROM current_classifications AS c \(join) \(whereClause)", arguments)
        }
        arguments[":machine"] = machine
        let order = Self.listingOrder(query.order)
        let page = "LIMIT \(arguments.add(query.limit ?? -1, as: "limit")) OFFSET \(arguments.add(query.offset, as: "offset"))"
        // A label's images by confidence, and any images by id, are walked in an index's order
        // and the walk stops at the page's end. Any other page is chosen first from the columns
        // that decide it (current_classifications', and the image's where asked), and only its
        // rows are read whole: sorting every image's whole row, its image, classification and
        // best path, made `list` read the whole catalogue (0.43 s on 100,000 images, where
        // choosing the page first takes 0.02 s).
        let walksAnIndex = query.order == .imageID
            || (selection.label != nil && [.confidenceDescending, .confidenceAscending].contains(query.order))
        if query.limit != nil, !walksAnIndex {
            let readsImages = selection.readsImages || [.newestImported, .oldestImported, .newestTaken].contains(query.order)
            let source = "current_classifications AS c" + (readsImages ? " CROSS JOIN images AS i ON i.id = c.image_id" : "")
            let sql = """
                SELECT \(ListingColumns.list)
                FROM (SELECT c.image_id FROM \(source) \(whereClause) ORDER BY \(order) \(page)) AS page
                CROSS JOIN current_classifications AS c ON c.image_id = page.image_id
                CROSS JOIN images AS i ON i.id = c.image_id CROSS JOIN classifications AS k ON k.id = c.classification_id
                ORDER BY \(order)
                """
            return (sql, arguments)
        }
        // CROSS JOIN keeps current_classifications the outer loop, so the
        // label index drives the query. The best path is the first entry of
        // image_paths_by_image_best for the image.
        let sql = """
            SELECT \(ListingColumns.list)
            FROM current_classifications AS c CROSS JOIN images AS i ON i.id = c.image_id
            CROSS JOIN classifications AS k ON k.id = c.classification_id
            \(whereClause)
            ORDER BY \(order) \(page)
            """
        return (sql, arguments)
    }

    /// The ORDER BY of a listing in `order`, on `c` (current_classifications) and `i` (images),
    /// on either engine.
    static func listingOrder(_ order: ClassificationQuery.Order) -> String {
        switch order {
        case .confidenceDescending: "c.confidence DESC, c.image_id DESC"
        case .confidenceAscending: "c.confidence ASC, c.image_id ASC"
        case .newestClassified: "c.classified_at DESC, c.image_id DESC"
        case .newestImported: "i.first_imported DESC, c.image_id DESC"
        case .oldestImported: "i.first_imported ASC, c.image_id ASC"
        // Images with no capture time last, then by id.
        case .newestTaken: "i.taken_at IS NULL, i.taken_at DESC, c.image_id DESC"
        case .imageID: "c.image_id ASC"
        case .effectiveLabel: "c.effective_label ASC, c.confidence DESC, c.image_id DESC"
        }
    }

    /// A listing's columns (`c` the current classification, `i` its image)
    /// and the reader of them, side by side. An image's path is one of this
    /// machine's (`:machine`, which every statement listing binds) found at the
    /// last look, the most recently seen; else the most recently seen of any
    /// machine found at its last look; else the most recently seen. Another
    /// machine's more recently seen path was shown for a file this machine has
    /// ('beta:/photos/coat.jpg' on alpha), as if it were not here. Each choice
    /// is a walk of image_paths_by_image_best, no sort. Columns are found by name once
    /// per statement; each row is read by index.
    struct ListingColumns: RecordColumns {
        static let list = """
            c.image_id, i.sha256, c.classification_id, c.model_id, c.label, c.confidence,
            c.classified_at, i.first_imported, i.taken_at, i.taken_offset, i.colour, i.colours, i.colour_on_garment,
            i.person_colour,
            i.width, i.height, i.format,
            coalesce((SELECT path FROM image_paths WHERE image_id = c.image_id AND missing = 0 AND machine = :machine
                      ORDER BY last_seen DESC, path DESC LIMIT 1),
                     (SELECT path FROM image_paths WHERE image_id = c.image_id
                      ORDER BY missing, last_seen DESC, path DESC LIMIT 1)) AS path,
            CASE WHEN EXISTS (SELECT 1 FROM image_paths WHERE image_id = c.image_id AND missing = 0 AND machine = :machine)
                 THEN :machine
                 ELSE (SELECT machine FROM image_paths WHERE image_id = c.image_id
                       ORDER BY missing, last_seen DESC, path DESC LIMIT 1) END AS path_machine,
            (SELECT min(missing) FROM image_paths WHERE image_id = c.image_id) AS path_missing,
            c.corrected_label, k.recipe_name, k.recipe_version
            """

        private let image, sha256, classification, model, label, confidence, classifiedAt, firstImported, takenAt, takenOffset: Int32
        private let colour, colours, colourOnGarment, personColour: Int32
        private let width, height, format, path, pathMachine, pathMissing, correctedLabel, recipeName, recipeVersion: Int32

        init(_ statement: some CatalogueRow) {
            image = statement.column("image_id")
            sha256 = statement.column("sha256")
            classification = statement.column("classification_id")
            model = statement.column("model_id")
            label = statement.column("label")
            confidence = statement.column("confidence")
            classifiedAt = statement.column("classified_at")
            firstImported = statement.column("first_imported")
            takenAt = statement.column("taken_at")
            takenOffset = statement.column("taken_offset")
            colour = statement.column("colour")
            colours = statement.column("colours")
            colourOnGarment = statement.column("colour_on_garment")
            personColour = statement.column("person_colour")
            width = statement.column("width")
            height = statement.column("height")
            format = statement.column("format")
            path = statement.column("path")
            pathMachine = statement.column("path_machine")
            pathMissing = statement.column("path_missing")
            correctedLabel = statement.column("corrected_label")
            recipeName = statement.column("recipe_name")
            recipeVersion = statement.column("recipe_version")
        }

        func record(_ row: some CatalogueRow) throws -> CurrentClassification {
            // Named only when a value is refused: a string per row would cost every listing.
            let name = { "the current classification of image \(row.int64(image))" }
            return CurrentClassification(
                image: ImageID(row.int64(image)), sha256: try SHA256Digest(bytes: row.blob(sha256)),
                classification: ClassificationID(row.int64(classification)), model: ModelID(row.int64(model)),
                recipe: Recipe(name: row.text(recipeName), version: row.int(recipeVersion)),
                label: try row.label(label, upTo: Catalogue.labelCount - 1, row: name()),
                confidence: try row.confidence(confidence, row: name()),
                classifiedAt: try row.date(classifiedAt, row: name()),
                firstImported: try row.date(firstImported, row: name()), taken: try row.takenTime(takenAt, takenOffset, row: name()),
                colours: try row.storedColours(colour, colours, colourOnGarment, row: name()),
                personColour: row.optionalText(personColour),
                width: row.int(width), height: row.int(height), format: row.text(format),
                path: row.optionalText(path), pathMachine: row.optionalText(pathMachine), pathMissing: !row.isNull(pathMissing) && row.int(pathMissing) != 0,
                correctedLabel: row.isNull(correctedLabel) ? nil : try row.label(correctedLabel, upTo: Catalogue.noneLabel, row: name()))
        }
    }
}
