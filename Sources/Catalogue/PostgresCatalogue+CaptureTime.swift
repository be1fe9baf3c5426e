extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingCaptureTime`.
    public func imagesAwaitingCaptureTime(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE capture_read = 0 AND id > $1 ORDER BY id LIMIT $2",
                 [after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.recordCaptureTime`.
    public func recordCaptureTime(_ taken: TakenTime?, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("UPDATE images SET taken_at = $1, taken_offset = $2, capture_read = 1 WHERE id = $3",
                                       taken?.clock.catalogueMilliseconds, taken?.offsetMinutes, image)
        }
    }
}
