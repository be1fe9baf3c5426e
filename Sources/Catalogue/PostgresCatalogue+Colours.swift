extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingColours`.
    public func imagesAwaitingColours(after: ImageID?, limit: Int) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE colour IS NULL AND thumbnail IS NOT NULL AND id > $1 ORDER BY id LIMIT $2",
                 [after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.recordColours`.
    public func recordColours(_ colours: StoredColours, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("UPDATE images SET colour = $1, colours = $2, colour_on_garment = $3 WHERE id = $4",
                                       colours.main, colours.sharesText, colours.onGarment ? 1 : 0, image)
        }
    }
}
