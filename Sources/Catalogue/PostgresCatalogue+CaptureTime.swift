extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingCaptureTime`.
    public func imagesAwaitingCaptureTime(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE capture_read = 0 AND id > :after ORDER BY id LIMIT :limit",
                 [":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.recordCaptureTime`.
    public func recordCaptureTime(_ taken: TakenTime?, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("""
                UPDATE images SET taken_at = :taken_at, taken_offset = :taken_offset, capture_read = 1 WHERE id = :image
                """, [":taken_at": taken?.clock.catalogueMilliseconds, ":taken_offset": taken?.offsetMinutes, ":image": image])
        }
    }
}
