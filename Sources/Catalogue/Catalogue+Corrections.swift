import Foundation

extension Catalogue {
    /// The label a person gives a photo that shows none of the ten.
    public static let noneLabel = 10

    /// Applies one act of a person to each image, all in one transaction: a
    /// label (one of the ten, or `noneLabel`), a confirmation of the model's
    /// current label, or a clear. Runs never overwrite a person's label; a
    /// later act replaces it, earlier ones stay in `corrections(of:)`.
    @discardableResult
    public func correct(_ images: [ImageID], _ request: CorrectionRequest, command: String,
                        at date: Date = Date()) throws -> [CorrectionOutcome] {
        try request.validate()
        return try database.transaction {
            let insert = try database.cachedStatement("""
                INSERT INTO corrections (image_id, kind, label, command, corrected_at)
                VALUES (:image_id, :kind, :label, :command, :corrected_at)
                """)
            return try images.map { image in
                guard try database.scalarInt("SELECT 1 FROM images WHERE id = :image", [":image": image]) != nil else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                let model = try database.scalarInt("SELECT label FROM current_classifications WHERE image_id = :image",
                                                   [":image": image])
                    .map(Int.init)
                let before = try personLabel(of: image)
                let (kind, label) = try request.act(on: image, modelLabel: model)
                try insert.bind(image, to: ":image_id")
                try insert.bind(kind.rawValue, to: ":kind")
                try insert.bind(label, to: ":label")
                try insert.bind(command, to: ":command")
                try insert.bind(date.catalogueMilliseconds, to: ":corrected_at")
                try insert.perform()
                return CorrectionOutcome(image: image, modelLabel: model, personBefore: before, personAfter: label)
            }
        }
    }

    /// The person's label of an image now: the label of its latest act, nil
    /// when there is none or the latest was a clear.
    public func personLabel(of image: ImageID) throws -> Int? {
        try database.scalarInt("SELECT label FROM corrections WHERE image_id = :image ORDER BY id DESC LIMIT 1", [":image": image])
            .map(Int.init)
    }

    /// The image's latest act, unless it was a clear.
    public func correction(of image: ImageID) throws -> Correction? {
        guard let latest = try corrections(of: image).last, latest.kind != .clear else { return nil }
        return latest
    }

    /// Every act on one image, oldest first.
    public func corrections(of image: ImageID) throws -> [Correction] {
        try database.records("SELECT \(Correction.Columns.list) FROM corrections WHERE image_id = :image ORDER BY id",
                             [":image": image],
                             as: Correction.Columns.self)
    }

    /// The latest act of every image whose person label stands, in image order.
    public func corrections() throws -> [Correction] {
        try database.records("""
            SELECT \(Correction.Columns.list) FROM corrections AS c
            WHERE id = (SELECT max(id) FROM corrections WHERE image_id = c.image_id) AND kind != 'clear'
            ORDER BY image_id
            """, as: Correction.Columns.self)
    }

    /// Every image a person labelled or confirmed, with that label and its
    /// stored thumbnail, in image order, one in memory at a time: the
    /// examples to learn from. `none` and images without a thumbnail are
    /// left out. `body` must not write to this catalogue.
    public func forEachLabelledImage(_ body: (LabelledImage) throws -> Void) throws {
        let statement = try database.prepare("""
            SELECT k.image_id, k.label, k.kind, i.thumbnail, i.sha256
            FROM corrections AS k JOIN images AS i ON i.id = k.image_id
            WHERE k.id = (SELECT max(id) FROM corrections WHERE image_id = k.image_id)
              AND k.label IS NOT NULL AND k.label != \(Catalogue.noneLabel) AND i.thumbnail IS NOT NULL
            ORDER BY k.image_id
            """)
        let image = statement.column("image_id"), label = statement.column("label"), kind = statement.column("kind")
        let thumbnail = statement.column("thumbnail"), sha256 = statement.column("sha256")
        while try statement.step() {
            try body(LabelledImage(image: ImageID(statement.int64(image)),
                                   label: try statement.label(label, upTo: Catalogue.noneLabel,
                                                              row: "the person's label of image \(statement.int64(image))"),
                                   kind: Correction.Kind(rawValue: statement.text(kind)) ?? .label,
                                   thumbnail: statement.blob(thumbnail), sha256: try SHA256Digest(bytes: statement.blob(sha256))))
        }
    }

    /// How the person's current labels stand against the model's current
    /// labels: per (model label, person label) pair, how many images. A pair
    /// of equal labels is a label the person says is right; `none` as the
    /// person's label moves away from the model's.
    public func personLabelPairs() throws -> [(model: Int, person: Int, images: Int)] {
        try database.rows("""
            SELECT label, corrected_label, count(*) AS images FROM current_classifications
            WHERE corrected_label IS NOT NULL GROUP BY label, corrected_label ORDER BY label, corrected_label
            """) { row in
            (try row.label("label", upTo: Catalogue.labelCount - 1, row: "the current classifications"),
             try row.label("corrected_label", upTo: Catalogue.noneLabel, row: "the current classifications"), row.int("images"))
        }
    }
}
