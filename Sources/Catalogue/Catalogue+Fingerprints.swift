extension Catalogue {
    /// Images with a thumbnail whose fingerprints were never taken, or not all of them (imported
    /// before they were kept, or before the crops' or the garment's crops were), `limit` at a
    /// time after `after`, by id. An image without a garment has no garment's crops to take.
    public func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID] {
        // Through images_by_fingerprint, which holds id and fingerprint: only the rows without
        // one are read from the table, past their thumbnails (all of them: 1.5 s on 100,000).
        try database.rows("""
            SELECT id FROM images INDEXED BY images_by_fingerprint
            WHERE (fingerprint IS NULL OR crop_fingerprints IS NULL
                   OR (garment_fingerprint IS NOT NULL AND garment_crop_fingerprints IS NULL))
              AND thumbnail IS NOT NULL AND id > :after
            ORDER BY id LIMIT :limit
            """, [":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// Every image with fingerprints, by id (what `duplicates` compares).
    public func fingerprintedImages() throws -> [FingerprintedImage] {
        try database.rows(FingerprintedImage.sql) { try FingerprintedImage($0) }
    }

    /// Every fingerprinted image's id and fingerprints, by id (what `similar` ranks every image
    /// by first), from the index `images_by_fingerprint` alone.
    public func fingerprints() throws -> [(id: ImageID, fingerprint: StoredFingerprint)] {
        let statement = try database.cachedStatement(
            "SELECT id, fingerprint, garment_fingerprint FROM images WHERE fingerprint IS NOT NULL ORDER BY id")
        defer { statement.reset() }
        // Found by name once: every image is read (100,000 rows for one `similar`).
        let id = statement.column("id"), whole = statement.column("fingerprint"), garment = statement.column("garment_fingerprint")
        var found: [(id: ImageID, fingerprint: StoredFingerprint)] = []
        while try statement.step() {
            found.append((ImageID(statement.int64(id)),
                          StoredFingerprint(wholeColumn: statement.int64(whole), garmentColumn: statement.optionalInt64(garment))))
        }
        return found
    }

    /// The colours, logits and label of each of `images` (those that exist), in no order.
    public func lookalikeFacts(_ images: [ImageID]) throws -> [LookalikeFacts] {
        var facts: [LookalikeFacts] = []
        for start in stride(from: 0, to: images.count, by: 500) {
            let chunk = Array(images[start..<min(images.count, start + 500)])
            var arguments: SQLArguments = [:]
            let sql = LookalikeFacts.sql(placeholders: chunk.map { arguments.add($0, as: "id") }.joined(separator: ", "))
            facts += try database.rows(sql, arguments) { try LookalikeFacts($0) }
        }
        return facts
    }

    /// Stores the fingerprints taken of `image`'s thumbnail.
    public func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws {
        try database.execute("""
            UPDATE images SET fingerprint = :whole, garment_fingerprint = :garment, crop_fingerprints = :crops,
                garment_crop_fingerprints = :garmentCrops WHERE id = :image
            """, [":whole": fingerprint.wholeColumn, ":garment": fingerprint.garmentColumn, ":crops": fingerprint.cropsColumn,
                ":garmentCrops": fingerprint.garmentCropsColumn, ":image": image])
    }
}
