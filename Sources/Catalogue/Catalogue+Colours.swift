import Foundation

extension Catalogue {
    /// Images with a thumbnail whose garment colours were never measured (imported before
    /// they were kept), `limit` at a time after `after`, by id; with `again`, every image with
    /// a thumbnail (an earlier rule measured their colours).
    public func imagesAwaitingColours(after: ImageID?, limit: Int, again: Bool = false) throws -> [ImageID] {
        try database.rows("""
            SELECT id FROM images WHERE (:again OR colour IS NULL) AND thumbnail IS NOT NULL AND id > :after
            ORDER BY id LIMIT :limit
            """, [":again": again, ":after": after?.rawValue ?? 0, ":limit": limit]) { ImageID($0.int64("id")) }
    }

    /// The version of the rule that measured the catalogue's colours (`colour_rule` among the
    /// settings), nil when none was recorded.
    public func colourRule() throws -> Int? {
        try setting(Self.colourRuleSetting).flatMap { Int($0) }
    }

    /// Records that every colour the catalogue holds was measured by `rule`.
    public func recordColourRule(_ rule: Int, at date: Date) throws {
        try setSetting(Self.colourRuleSetting, to: String(rule), at: date)
    }

    static let colourRuleSetting = "colour_rule"

    /// Stores the garment colours measured on `image`'s thumbnail.
    public func recordColours(_ colours: StoredColours, of image: ImageID) throws {
        try database.execute("""
            UPDATE images SET colour = :colour, colours = :colours, colour_on_garment = :on_garment WHERE id = :image
            """, [":colour": colours.main, ":colours": colours.sharesText, ":on_garment": colours.onGarment ? 1 : 0, ":image": image])
    }
}
