import Foundation

extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingColours`.
    public func imagesAwaitingColours(after: ImageID?, limit: Int, again: Bool) throws -> [ImageID] {
        try rows("SELECT id FROM images WHERE ($1 OR colour IS NULL) AND thumbnail IS NOT NULL AND id > $2 ORDER BY id LIMIT $3",
                 [again, after?.rawValue ?? 0, limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.colourRule`.
    public func colourRule() throws -> Int? {
        try rows("SELECT value FROM settings WHERE key = $1", [Catalogue.colourRuleSetting]) { $0.text("value") }
            .first.flatMap { Int($0) }
    }

    /// As `Catalogue.recordColourRule`.
    public func recordColourRule(_ rule: Int, at date: Date) throws {
        _ = try connection.execute("""
            INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, Catalogue.colourRuleSetting, String(rule), date.catalogueMilliseconds)
    }

    /// As `Catalogue.recordColours`.
    public func recordColours(_ colours: StoredColours, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("UPDATE images SET colour = $1, colours = $2, colour_on_garment = $3 WHERE id = $4",
                                       colours.main, colours.sharesText, colours.onGarment ? 1 : 0, image)
        }
    }
}
