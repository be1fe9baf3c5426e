extension Catalogue {
    /// Images with a thumbnail whose fingerprints were never taken (imported before they were
    /// kept), `limit` at a time after `after`, by id.
    public func imagesAwaitingFingerprint(after: ImageID?, limit: Int) throws -> [ImageID] {
        try database.rows("SELECT id FROM images WHERE fingerprint IS NULL AND thumbnail IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
                          [after?.rawValue ?? 0, limit]) { ImageID($0.int64(0)) }
    }

    /// Every image with fingerprints, by id (what `duplicates` compares).
    public func fingerprintedImages() throws -> [FingerprintedImage] {
        try database.rows(FingerprintedImage.sql) { FingerprintedImage($0) }
    }

    /// Stores the fingerprints taken of `image`'s thumbnail.
    public func recordFingerprint(_ fingerprint: StoredFingerprint, of image: ImageID) throws {
        try database.execute("UPDATE images SET fingerprint = ?, garment_fingerprint = ? WHERE id = ?",
                             fingerprint.wholeColumn, fingerprint.garmentColumn, image)
    }
}
