import Files
import Foundation

/// One batch of a run's writes to a PostgreSQL catalogue, inside
/// `PostgresCatalogue.writing(run:at:_:)`: the statements of `RunBatch`, in
/// PostgreSQL's SQL, all in the batch's one transaction. Whether content is
/// new is decided inside it (`ON CONFLICT DO NOTHING ... RETURNING`), so two
/// machines importing the same photo store it once.
struct PostgresBatch: CatalogueBatch {
    let catalogue: PostgresCatalogue
    let context: Catalogue.RunContext
    /// Every row of the batch carries this time.
    let now: Int64

    var run: RunID { context.run }
    private var connection: PostgresConnection { catalogue.connection }

    func insertImages(_ images: [NewImage], known: KnownContent) throws -> [InsertedImage] {
        for image in images {
            if let classification = image.classification { try Catalogue.validate(classification) }
        }
        return try images.map { image in
            // Looked for first, though the write lock makes the insert's conflict clause only a guard:
            // an insert that meets a conflict still takes a number from the id sequence, and ids
            // would leave gaps SQLite's do not.
            let storedID = try connection.scalarInt("SELECT id FROM images WHERE sha256 = $1", image.sha256.bytes)
            let insertedID = try storedID != nil ? nil : connection.scalarInt("""
                INSERT INTO images (sha256, byte_size, width, height, format, thumbnail, first_imported, taken_at,
                                    taken_offset, capture_read, colour, colours, colour_on_garment)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $11, $12) ON CONFLICT (sha256) DO NOTHING RETURNING id
                """, image.sha256.bytes, image.byteSize, image.width, image.height, image.format, image.thumbnail, now,
                image.taken?.clock.catalogueMilliseconds, image.taken?.offsetMinutes, image.colours?.main,
                image.colours?.sharesText, image.colours.map { $0.onGarment ? 1 : 0 })
            let isNew = insertedID != nil
            guard let id = insertedID ?? storedID else {
                throw CatalogueError.notFound("image \(image.sha256.hex) is neither new nor stored in \(catalogue.path)")
            }
            var pathIsNew = false
            if let file = image.file {
                // A new image's path is new to it; only a known image's needs the look.
                pathIsNew = try isNew || !path(file, names: ImageID(id))
                try storePath(file, of: ImageID(id))
            }
            var classification: ClassificationID?
            if let new = image.classification, isNew || known == .isClassifiedAgain {
                classification = try store(new, of: ImageID(id))
            }
            return InsertedImage(image: ImageID(id), isNew: isNew, classification: classification, pathIsNew: pathIsNew)
        }
    }

    func addClassifications(_ items: [(image: ImageID, classification: NewClassification)]) throws -> [ClassificationID?] {
        for item in items { try Catalogue.validate(item.classification) }
        return try items.map { try store($0.classification, of: $0.image) }
    }

    func recordPaths(_ files: [(file: SeenFile, sha256: SHA256Digest)]) throws -> [RecordedPath?] {
        try files.map { file, sha256 in
            guard let id = try connection.scalarInt("SELECT id FROM images WHERE sha256 = $1", sha256.bytes) else { return nil }
            let isNew = try !path(file, names: ImageID(id))
            try storePath(file, of: ImageID(id))
            return RecordedPath(image: ImageID(id), isNew: isNew)
        }
    }

    func recordFailure(path: String, reason: String, file: SeenFile?) throws {
        try catalogue.storeFailure(path: path, reason: reason, run: context.run, file: file, now: now)
    }

    /// Whether the stored path of `file` names `image` now (asked before `storePath`).
    private func path(_ file: SeenFile, names image: ImageID) throws -> Bool {
        try connection.scalarInt("SELECT image_id FROM image_paths WHERE path = $1", PathName.display(file.path)) == image.rawValue
    }

    /// Stores the path of `image`, or refreshes its size, time and sighting; a stored name
    /// with other bytes that shows the same is left alone, as in SQLite.
    private func storePath(_ file: SeenFile, of image: ImageID) throws {
        try connection.execute("""
            INSERT INTO image_paths AS p (path, image_id, size, mtime_ns, last_seen, path_bytes)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size,
                mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen, missing = 0
                WHERE p.path_bytes IS NOT DISTINCT FROM excluded.path_bytes
            """, PathName.display(file.path), image, file.size, file.modificationTimeNanoseconds, now,
            PathName.exactBytes(of: file.path))
    }

    /// Nil when this run classified the image already (its first classification stays).
    private func store(_ classification: NewClassification, of image: ImageID) throws -> ClassificationID? {
        // Looked for first, as an image is (see `insertImages`).
        guard try connection.scalarInt("SELECT 1 FROM classifications WHERE image_id = $1 AND run_id = $2",
                                       image, context.run) == nil else { return nil }
        return try connection.scalarInt("""
            INSERT INTO classifications
                (image_id, run_id, model_id, recipe_name, recipe_version, logits, label, confidence, classified_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (image_id, run_id) DO NOTHING RETURNING id
            """, image, context.run, context.model, context.recipe.name, context.recipe.version,
            Catalogue.littleEndianBytes(classification.logits), classification.label, classification.confidence, now)
            .map { ClassificationID($0) }
    }
}
