import Foundation

/// A person's colours: `Catalogue+ColourCorrections` in PostgreSQL's SQL.
extension PostgresCatalogue {
    /// As `Catalogue.setColour`.
    public func setColour(_ images: [ImageID], _ colour: String?, command: String, at date: Date) throws -> [ColourOutcome] {
        try connection.transaction {
            try images.map { image in
                guard let outcome = try rows(ColourCorrection.coloursSQL(image: "$1"), [image], {
                    ColourOutcome(image, $0, after: colour)
                }).first else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                try connection.execute("""
                    INSERT INTO colour_corrections (image_id, kind, colour, command, corrected_at) VALUES ($1, $2, $3, $4, $5)
                    """, image, (colour == nil ? ColourCorrection.Kind.clear : .colour).rawValue, colour, command,
                    date.catalogueMilliseconds)
                return outcome
            }
        }
    }

    public func colourCorrections(of image: ImageID) throws -> [ColourCorrection] {
        try records("SELECT \(ColourCorrection.Columns.list) FROM colour_corrections WHERE image_id = $1 ORDER BY id", [image],
                    as: ColourCorrection.Columns.self)
    }
}
