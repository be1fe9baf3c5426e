import Foundation

/// Leases on images, for several reclassifiers of one catalogue (migration 24), taken as the
/// files' are (`Catalogue+Leases`): each take is one IMMEDIATE transaction, so processes
/// take turns and never take an image twice. An image forgotten since the run listed it is
/// `gone`, not leased.
extension Catalogue {
    public func leaseImages(_ images: [ImageID], in split: ReclassificationSplit, owner: String,
                            until: Date, at date: Date) throws -> [ImageLease] {
        guard !images.isEmpty else { return [] }
        return try database.transaction {
            let take = try database.cachedStatement(ImageLeaseSQL.take)
            let done = try database.cachedStatement(ImageLeaseSQL.done)
            return try images.map { image in
                defer { take.reset() }
                try take.bind(image, to: ":image")
                try take.bind(owner, to: ":owner")
                try take.bind(until.catalogueMilliseconds, to: ":until")
                try take.bind(date.catalogueMilliseconds, to: ":now")
                try ImageLeaseSQL.bind(split, to: take)
                if try take.step() { return .taken }
                defer { done.reset() }
                try done.bind(image, to: ":image")
                try ImageLeaseSQL.bind(split, to: done)
                if try done.step() { return .done }
                return try database.scalarInt(ImageLeaseSQL.exists, [":image": image]) == nil ? .gone : .held
            }
        }
    }

    public func reclassificationSplit(model: ModelID, recipe: Recipe) throws -> ReclassificationSplit {
        let since = try database.scalarInt(ReclassificationSplit.startSQL,
                                           [":model": model, ":recipe_name": recipe.name, ":recipe_version": recipe.version])
        return ReclassificationSplit(model: model, recipe: recipe, since: since ?? Int64.min)
    }
}

/// The statements of an image's lease, in SQLite's SQL: a take (a new row, or an expired one
/// taken over; no row returned while another holder's lease lasts, or when the split has
/// done the image) and, when that took nothing, whether the split has done it.
private enum ImageLeaseSQL {
    static let isDone = ReclassificationSplit.doneSQL(image: ":image")

    static let take = """
        INSERT INTO image_leases AS l (image_id, owner, expires_at)
        SELECT :image, :owner, :until WHERE EXISTS (\(exists)) AND NOT \(isDone)
        ON CONFLICT (image_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
            WHERE l.expires_at < :now
        RETURNING image_id
        """

    static let done = "SELECT 1 WHERE \(isDone)"

    static let exists = "SELECT 1 FROM images WHERE id = :image"

    static func bind(_ split: ReclassificationSplit, to statement: Statement) throws {
        try statement.bind(split.model, to: ":model")
        try statement.bind(split.recipe.name, to: ":recipe_name")
        try statement.bind(split.recipe.version, to: ":recipe_version")
        try statement.bind(split.since, to: ":since")
    }
}
