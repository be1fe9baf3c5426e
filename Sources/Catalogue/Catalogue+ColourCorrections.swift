import Foundation

extension Catalogue {
    /// Sets a person's colour on each image (`colour` a palette name), or takes it back
    /// (nil), all in one transaction. Every act is kept; the latest wins, and no run
    /// changes it (measuring writes images.colour, never person_colour).
    @discardableResult
    public func setColour(_ images: [ImageID], _ colour: String?, command: String,
                          at date: Date = Date()) throws -> [ColourOutcome] {
        try database.transaction {
            let insert = try database.cachedStatement("""
                INSERT INTO colour_corrections (image_id, kind, colour, command, corrected_at)
                VALUES (:image_id, :kind, :colour, :command, :corrected_at)
                """)
            return try images.map { image in
                guard let outcome = try database.rows(ColourCorrection.coloursSQL, [":image": image], {
                    ColourOutcome(image, $0, after: colour)
                }).first else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                try insert.bind(image, to: ":image_id")
                try insert.bind((colour == nil ? ColourCorrection.Kind.clear : .colour).rawValue, to: ":kind")
                try insert.bind(colour, to: ":colour")
                try insert.bind(command, to: ":command")
                try insert.bind(date.catalogueMilliseconds, to: ":corrected_at")
                try insert.perform()
                return outcome
            }
        }
    }

    /// Every act on one image's colour, oldest first.
    public func colourCorrections(of image: ImageID) throws -> [ColourCorrection] {
        try database.records("SELECT \(ColourCorrection.Columns.list) FROM colour_corrections WHERE image_id = :image ORDER BY id",
                             [":image": image], as: ColourCorrection.Columns.self)
    }
}
