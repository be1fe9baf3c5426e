extension Catalogue {
    /// Images with a thumbnail whose garment colours were never measured (imported before
    /// they were kept), `limit` at a time after `after`, by id.
    public func imagesAwaitingColours(after: ImageID?, limit: Int) throws -> [ImageID] {
        try database.rows("SELECT id FROM images WHERE colour IS NULL AND thumbnail IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
                          [after?.rawValue ?? 0, limit]) { ImageID($0.int64(0)) }
    }

    /// Stores the garment colours measured on `image`'s thumbnail.
    public func recordColours(_ colours: StoredColours, of image: ImageID) throws {
        try database.execute("UPDATE images SET colour = ?, colours = ?, colour_on_garment = ? WHERE id = ?",
                             colours.main, colours.sharesText, colours.onGarment ? 1 : 0, image)
    }
}
