import Foundation

/// A person's colours: `Catalogue+ColourCorrections` in PostgreSQL's SQL.
extension PostgresCatalogue {
    /// As `Catalogue.setColour`.
    public func setColour(_ images: [ImageID], _ colour: String?, command: String, at date: Date) throws -> [ColourOutcome] {
        try connection.transaction {
            try images.map { image in
                guard let outcome = try rows(ColourCorrection.coloursSQL, [":image": image], {
                    ColourOutcome(image, $0, after: colour)
                }).first else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                try connection.execute("""
                    INSERT INTO colour_corrections (image_id, kind, colour, command, corrected_at) VALUES (:image, :kind, :colour, :command, :at)
                    """, [":image": image, ":kind": (colour == nil ? ColourCorrection.Kind.clear : .colour).rawValue, ":colour": colour,
                          ":command": command, ":at": date.catalogueMilliseconds])
                return outcome
            }
        }
    }

    public func colourCorrections(of image: ImageID) throws -> [ColourCorrection] {
        try records("SELECT \(ColourCorrection.Columns.list) FROM colour_corrections WHERE image_id = :image ORDER BY id",
                    [":image": image],
                    as: ColourCorrection.Columns.self)
    }
}
