extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingFingerprint`.
    public func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("""
            SELECT id FROM images WHERE (fingerprint IS NULL OR crop_fingerprints IS NULL
                   OR (garment_fingerprint IS NOT NULL AND garment_crop_fingerprints IS NULL))
              AND thumbnail IS NOT NULL
              AND id > :after ORDER BY id LIMIT :limit
            """, [":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.fingerprintedImages`.
    public func fingerprintedImages() throws -> [FingerprintedImage] {
        try rows(FingerprintedImage.sql) { try FingerprintedImage($0) }
    }

    /// As `Catalogue.fingerprints`.
    public func fingerprints() throws -> [(id: ImageID, fingerprint: StoredFingerprint)] {
        try rows("SELECT id, fingerprint, garment_fingerprint FROM images WHERE fingerprint IS NOT NULL ORDER BY id") {
            (ImageID($0.int64("id")), StoredFingerprint(wholeColumn: $0.int64("fingerprint"),
                                                        garmentColumn: $0.optionalInt64("garment_fingerprint")))
        }
    }

    /// As `Catalogue.lookalikeFacts`.
    public func lookalikeFacts(_ images: [ImageID]) throws -> [LookalikeFacts] {
        var facts: [LookalikeFacts] = []
        for start in stride(from: 0, to: images.count, by: 500) {
            let chunk = Array(images[start..<min(images.count, start + 500)])
            var arguments: PostgresArguments = [:]
            let sql = LookalikeFacts.sql(placeholders: chunk.map { arguments.add($0, as: "id") }.joined(separator: ", "))
            facts += try rows(sql, arguments) { try LookalikeFacts($0) }
        }
        return facts
    }

    /// As `Catalogue.recordFingerprint`.
    public func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("""
                UPDATE images SET fingerprint = :whole, garment_fingerprint = :garment, crop_fingerprints = :crops,
                garment_crop_fingerprints = :garmentCrops WHERE id = :image
                """, [":whole": fingerprint.wholeColumn, ":garment": fingerprint.garmentColumn, ":crops": fingerprint.cropsColumn,
                    ":garmentCrops": fingerprint.garmentCropsColumn, ":image": image])
        }
    }
}
