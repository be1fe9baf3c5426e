extension Catalogue {
    /// Images imported before capture times were kept, whose files were not read for one yet,
    /// `limit` at a time after `after`, by id.
    public func imagesAwaitingCaptureTime(after: ImageID?, limit: Int) throws -> [ImageID] {
        try database.rows("SELECT id FROM images WHERE capture_read = 0 AND id > ? ORDER BY id LIMIT ?",
                          [after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
    }

    /// Stores when `image` was taken as one of its files says (nil: the file says nothing),
    /// and that it was read: the next pass does not read it again.
    public func recordCaptureTime(_ taken: TakenTime?, of image: ImageID) throws {
        try database.execute("UPDATE images SET taken_at = ?, taken_offset = ?, capture_read = 1 WHERE id = ?",
                             taken?.clock.catalogueMilliseconds, taken?.offsetMinutes, image)
    }
}
