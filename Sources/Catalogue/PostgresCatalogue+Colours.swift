import Foundation

extension PostgresCatalogue {
    /// As `Catalogue.imagesAwaitingColours`.
    public func imagesAwaitingColours(after: ImageID?, limit: Int, again: Bool) throws -> [ImageID] {
        try rows("""
            SELECT id FROM images WHERE (:again OR colour IS NULL) AND thumbnail IS NOT NULL AND id > :after
            ORDER BY id LIMIT :limit
            """, [":again": again, ":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// As `Catalogue.colourRule`.
    public func colourRule() throws -> Int? {
        try rows("SELECT value FROM settings WHERE key = :colour_rule_setting",
                 [":colour_rule_setting": Catalogue.colourRuleSetting]) { $0.text("value") }
            .first.flatMap { Int($0) }
    }

    /// As `Catalogue.recordColourRule`.
    public func recordColourRule(_ rule: Int, at date: Date) throws {
        _ = try connection.execute("""
            INSERT INTO settings (key, value, updated_at) VALUES (:colour_rule_setting, :rule, :date)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, [":colour_rule_setting": Catalogue.colourRuleSetting, ":rule": String(rule), ":date": date.catalogueMilliseconds])
    }

    /// As `Catalogue.recordColours`.
    public func recordColours(_ colours: StoredColours, of image: ImageID) throws {
        try connection.transaction {
            _ = try connection.execute("""
                UPDATE images SET colour = :colour, colours = :colours, colour_on_garment = :on_garment WHERE id = :image
                """, [":colour": colours.main, ":colours": colours.sharesText, ":on_garment": colours.onGarment ? 1 : 0,
                      ":image": image])
        }
    }
}
