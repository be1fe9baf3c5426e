import Foundation

/// An image nobody gave one of the ten labels (no person's label standing,
/// or `none`), with its thumbnail and the classification that stands for
/// it: what a fine-tune keeps its parent's answer on.
public struct UnlabelledImage: Sendable, Equatable {
    public let image: ImageID
    public let sha256: SHA256Digest
    public let thumbnail: [UInt8]
    /// The current classification's logits, the model that made them (its
    /// file's SHA-256) and the recipe; nil when never classified.
    public let logits: [Float]?
    public let modelSHA256: SHA256Digest?
    public let recipe: Recipe?
}

extension UnlabelledImage {
    /// Every image with a thumbnail and no person's label of the ten, in id order: the one
    /// query of both engines.
    static let idsSQL = """
        SELECT i.id FROM images AS i
        WHERE i.thumbnail IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM corrections AS k
            WHERE k.image_id = i.id AND k.id = (SELECT max(id) FROM corrections WHERE image_id = i.id)
              AND k.label IS NOT NULL AND k.label != \(Catalogue.noneLabel))
        ORDER BY i.id
        """

    /// The image whose id is bound to `:image`, with its thumbnail and current
    /// classification; no row when it is gone or has no thumbnail.
    static var oneImageSQL: String {
        """
        SELECT \(Columns.list)
        FROM images AS i
        LEFT JOIN current_classifications AS cc ON cc.image_id = i.id
        LEFT JOIN classifications AS c ON c.id = cc.classification_id
        LEFT JOIN models AS m ON m.id = c.model_id
        WHERE i.id = :image AND i.thumbnail IS NOT NULL
        """
    }

    /// An unlabelled image's columns as `sql(image:)` SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "i.id, i.thumbnail, i.sha256, c.logits, c.recipe_name, c.recipe_version, m.sha256 AS model_sha256"

        private let id, thumbnail, sha256, logits, recipeName, recipeVersion, model: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            thumbnail = statement.column("thumbnail")
            sha256 = statement.column("sha256")
            logits = statement.column("logits")
            recipeName = statement.column("recipe_name")
            recipeVersion = statement.column("recipe_version")
            model = statement.column("model_sha256")
        }

        func record(_ row: some CatalogueRow) throws -> UnlabelledImage {
            let image = ImageID(row.int64(id))
            let classified = !row.isNull(logits)
            return UnlabelledImage(
                image: image, sha256: try SHA256Digest(bytes: row.blob(sha256)), thumbnail: row.blob(thumbnail),
                logits: classified ? try row.logits(logits, count: Catalogue.labelCount,
                                                    row: "the current classification of image \(image)") : nil,
                modelSHA256: classified ? try SHA256Digest(bytes: row.blob(model)) : nil,
                recipe: classified ? Recipe(name: row.text(recipeName), version: row.int(recipeVersion)) : nil)
        }
    }
}

extension Catalogue {
    /// Every image with a thumbnail and no person's label of the ten, in id order.
    public func unlabelledImageIDs() throws -> [ImageID] {
        try database.rows(UnlabelledImage.idsSQL) { row in ImageID(row.int64("id")) }
    }

    /// The images `ids` names (from `unlabelledImageIDs`), one in memory at a
    /// time, in the order given; an id no longer there is passed over.
    /// `body` must not write to this catalogue.
    public func forEachUnlabelledImage(_ ids: [ImageID], _ body: (UnlabelledImage) throws -> Void) throws {
        let statement = try database.prepare(UnlabelledImage.oneImageSQL)
        let columns = UnlabelledImage.Columns(statement)
        for id in ids {
            statement.reset()
            try statement.bind(id, to: ":image")
            guard try statement.step() else { continue }
            try body(try columns.record(statement))
        }
    }
}
