extension Catalogue {
    /// Images imported before capture times were kept, whose files were not read for one yet,
    /// `limit` at a time after `after`, by id.
    public func imagesAwaitingCaptureTime(after: ImageID?, limit: Int) throws -> [ImageID] {
        try database.rows("SELECT id FROM images WHERE capture_read = 0 AND id > :after ORDER BY id LIMIT :limit",
                          [":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// Stores when `image` was taken as one of its files says (nil: the file says nothing),
    /// and that it was read: the next pass does not read it again.
    public func recordCaptureTime(_ taken: TakenTime?, of image: ImageID) throws {
        try database.execute("UPDATE images SET taken_at = :taken_at, taken_offset = :taken_offset, capture_read = 1 WHERE id = :image",
                             [":taken_at": taken?.clock.catalogueMilliseconds, ":taken_offset": taken?.offsetMinutes, ":image": image])
    }
}
