extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingFingerprint`.
    public func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE fingerprint IS NULL AND thumbnail IS NOT NULL AND id > $1 ORDER BY id LIMIT $2",
                 [after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.fingerprintedImages`.
    public func fingerprintedImages() throws -> [FingerprintedImage] {
        try rows(FingerprintedImage.sql) { FingerprintedImage($0) }
    }

    /// As `Catalogue.recordFingerprint`.
    public func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("UPDATE images SET fingerprint = $1, garment_fingerprint = $2 WHERE id = $3",
                                       fingerprint.wholeColumn, fingerprint.garmentColumn, image)
        }
    }
}
