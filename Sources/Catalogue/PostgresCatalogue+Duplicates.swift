import Foundation

/// `Catalogue+Duplicates` in PostgreSQL's SQL.
extension PostgresCatalogue {
    /// As `Catalogue.dismissedPairs`.
    public func dismissedPairs() throws -> Set<DismissedPair> {
        Set(try rows(DismissedPair.sql) { DismissedPair($0) })
    }

    /// As `Catalogue.dismissDuplicates`.
    public func dismissDuplicates(_ images: [ImageID], at date: Date) throws {
        try connection.transaction {
            for pair in DismissedPair.all(of: images) {
                _ = try connection.execute("""
                    INSERT INTO dismissed_duplicates (image_id, other_image_id, dismissed_at) VALUES (:image, :other, :date)
                    ON CONFLICT DO NOTHING
                    """, [":image": pair.image, ":other": pair.other, ":date": date.catalogueMilliseconds])
            }
        }
    }
}
