import Foundation

extension Catalogue {
    /// Every pair a person said is not the same photo.
    public func dismissedPairs() throws -> Set<DismissedPair> {
        Set(try database.rows(DismissedPair.sql) { DismissedPair($0) })
    }

    /// Keeps every pair of `images` as not the same photo, in one transaction; pairs kept
    /// before stay as they were.
    public func dismissDuplicates(_ images: [ImageID], at date: Date) throws {
        try database.transaction {
            let insert = try database.cachedStatement("""
                INSERT INTO dismissed_duplicates (image_id, other_image_id, dismissed_at) VALUES (:image, :other, :at)
                ON CONFLICT DO NOTHING
                """)
            for pair in DismissedPair.all(of: images) {
                try insert.bind([":image": pair.image, ":other": pair.other, ":at": date.catalogueMilliseconds])
                try insert.perform()
            }
        }
    }
}

extension DismissedPair {
    /// Every pair of distinct images among `images`.
    static func all(of images: [ImageID]) -> [DismissedPair] {
        let distinct = Array(Set(images)).sorted()
        var pairs: [DismissedPair] = []
        for i in distinct.indices {
            for j in distinct.indices where j > i { pairs.append(DismissedPair(distinct[i], distinct[j])) }
        }
        return pairs
    }
}
