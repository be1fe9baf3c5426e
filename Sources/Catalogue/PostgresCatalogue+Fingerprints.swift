extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingFingerprint`.
    public func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE (fingerprint IS NULL OR crop_fingerprints IS NULL) AND thumbnail IS NOT NULL AND id > $1 ORDER BY id LIMIT $2",
                 [after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
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
            let sql = LookalikeFacts.sql(placeholders: chunk.indices.map { "$\($0 + 1)" }.joined(separator: ", "))
            facts += try rows(sql, chunk) { try LookalikeFacts($0) }
        }
        return facts
    }

    /// As `Catalogue.recordFingerprint`.
    public func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("UPDATE images SET fingerprint = $1, garment_fingerprint = $2, crop_fingerprints = $3 WHERE id = $4",
                                       fingerprint.wholeColumn, fingerprint.garmentColumn, fingerprint.cropsColumn, image)
        }
    }
}
