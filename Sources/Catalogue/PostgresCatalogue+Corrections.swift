import Foundation

/// A person's acts and what learning reads from them: `Catalogue+Corrections`,
/// `+Reclassification` and `+Unlabelled` in PostgreSQL's SQL.
extension PostgresCatalogue {
    /// Applies one act of a person to each image, all in one transaction (see `Catalogue.correct`).
    public func correct(_ images: [ImageID], _ request: CorrectionRequest, command: String, at date: Date) throws
        -> [CorrectionOutcome] {
        try request.validate()
        return try connection.transaction {
            try images.map { image in
                guard try connection.scalarInt("SELECT 1 FROM images WHERE id = :image", [":image": image]) != nil else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                let model = try connection.scalarInt("SELECT label FROM current_classifications WHERE image_id = :image",
                                                     [":image": image])
                    .map(Int.init)
                let before = try personLabel(of: image)
                let (kind, label) = try request.act(on: image, modelLabel: model)
                try connection.execute("""
                    INSERT INTO corrections (image_id, kind, label, command, corrected_at) VALUES (:image, :kind, :label, :command, :date)
                    """, [":image": image, ":kind": kind.rawValue, ":label": label, ":command": command, ":date": date.catalogueMilliseconds])
                return CorrectionOutcome(image: image, modelLabel: model, personBefore: before, personAfter: label)
            }
        }
    }

    public func personLabel(of image: ImageID) throws -> Int? {
        try connection.scalarInt("SELECT label FROM corrections WHERE image_id = :image ORDER BY id DESC LIMIT 1",
                                 [":image": image])
            .map(Int.init)
    }

    public func corrections(of image: ImageID) throws -> [Correction] {
        try records("SELECT \(Correction.Columns.list) FROM corrections WHERE image_id = :image ORDER BY id", [":image": image],
                    as: Correction.Columns.self)
    }

    /// Every image a person labelled or confirmed (`none` left out), with its thumbnail.
    public func forEachLabelledImage(_ body: (LabelledImage) throws -> Void) throws {
        try forEachRow("""
            SELECT k.image_id, k.label, k.kind, i.thumbnail, i.sha256
            FROM corrections AS k JOIN images AS i ON i.id = k.image_id
            WHERE k.id = (SELECT max(id) FROM corrections WHERE image_id = k.image_id)
              AND k.label IS NOT NULL AND k.label != \(Catalogue.noneLabel) AND i.thumbnail IS NOT NULL
            ORDER BY k.image_id
            """) { row in
            try body(LabelledImage(image: ImageID(row.int64("image_id")),
                                   label: try row.label("label", upTo: Catalogue.noneLabel,
                                                        row: "the person's label of image \(row.int64("image_id"))"),
                                   kind: Correction.Kind(rawValue: row.text("kind")) ?? .label,
                                   thumbnail: row.blob("thumbnail"), sha256: try row.sha256("sha256")))
        }
    }

    public func personLabelPairs() throws -> [(model: Int, person: Int, images: Int)] {
        try rows("""
            SELECT label, corrected_label, count(*) AS images FROM current_classifications
            WHERE corrected_label IS NOT NULL GROUP BY label, corrected_label ORDER BY label, corrected_label
            """) { row in
            (try row.label("label", upTo: Catalogue.labelCount - 1, row: "the current classifications"),
             try row.label("corrected_label", upTo: Catalogue.noneLabel, row: "the current classifications"),
             row.int("images"))
        }
    }

    /// Every image with a thumbnail and no person's label of the ten, in id order.
    public func unlabelledImageIDs() throws -> [ImageID] {
        try rows(UnlabelledImage.idsSQL) { ImageID($0.int64("id")) }
    }

    public func forEachUnlabelledImage(_ ids: [ImageID], _ body: (UnlabelledImage) throws -> Void) throws {
        for id in ids {
            if let image = try records(UnlabelledImage.oneImageSQL, [":image": id], as: UnlabelledImage.Columns.self).first {
                try body(image)
            }
        }
    }

    /// Every image with a thumbnail that `filter` selects, in id order (see
    /// `Catalogue.reclassificationCandidates`); an id list is one `bigint[]` parameter.
    public func reclassificationCandidates(_ filter: ReclassificationFilter) throws -> [ReclassificationCandidate] {
        var arguments: PostgresArguments = [:]
        var conditions = ["i.thumbnail IS NOT NULL"]
        if let label = filter.label {
            conditions.append("coalesce(c.effective_label, (SELECT label FROM corrections WHERE image_id = i.id "
                              + "ORDER BY id DESC LIMIT 1)) = \(arguments.add(label, as: "label"))")
        }
        if let below = filter.confidenceBelow { conditions.append("c.confidence < \(arguments.add(below, as: "below"))") }
        if let since = filter.importedSince {
            conditions.append("i.first_imported >= \(arguments.add(since.catalogueMilliseconds, as: "since"))")
        }
        if let images = filter.images {
            conditions.append("i.id = ANY(\(arguments.add(PostgresValue.ids(images.map(\.rawValue)), as: "images")))")
        }
        return try rows("""
            SELECT i.id, c.label, c.confidence,
                   (SELECT label FROM corrections WHERE image_id = i.id ORDER BY id DESC LIMIT 1) AS person_label
            FROM images AS i LEFT JOIN current_classifications AS c ON c.image_id = i.id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY i.id
            """, arguments) { row in
            let unclassified = row.isNull("label")
            let name = "image \(row.int64("id"))"
            return ReclassificationCandidate(
                image: ImageID(row.int64("id")),
                label: unclassified ? nil : try row.label("label", upTo: Catalogue.labelCount - 1, row: name),
                confidence: unclassified ? nil : try row.confidence("confidence", row: name),
                personLabel: try row.optionalLabel("person_label", upTo: Catalogue.noneLabel, row: name))
        }
    }
}
