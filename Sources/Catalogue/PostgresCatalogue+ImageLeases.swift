import Foundation

/// Leases on images (see `Catalogue+ImageLeases`), a take in one statement, in image order
/// as the files' are (`PostgresCatalogue+Leases`), then one more for what the split has done
/// of those not taken.
extension PostgresCatalogue {
    public func leaseImages(_ images: [ImageID], in split: ReclassificationSplit, owner: String,
                            until: Date, at date: Date) throws -> [ImageLease] {
        guard !images.isEmpty else { return [] }
        var arguments = splitArguments(split)
        let holder = arguments.add(owner, as: "owner"), expires = arguments.add(until.catalogueMilliseconds, as: "until")
        let now = arguments.add(date.catalogueMilliseconds, as: "now")
        let isDone = ReclassificationSplit.doneSQL(image: "i.id")
        let ids = images.map { "(\(arguments.add($0, as: "image"))::bigint)" }.joined(separator: ", ")
        let taken = Set(try preparedRows("""
            INSERT INTO image_leases AS l (image_id, owner, expires_at)
            SELECT i.id, \(holder), \(expires) FROM (VALUES \(ids)) AS i(id)
            WHERE EXISTS (SELECT 1 FROM images WHERE id = i.id) AND NOT \(isDone)
            ORDER BY i.id
            ON CONFLICT (image_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                WHERE l.expires_at < \(now)
            RETURNING l.image_id
            """, arguments) { ImageID($0.int64("image_id")) })
        let others = images.filter { !taken.contains($0) }
        var done: Set<ImageID> = [], present: Set<ImageID> = []
        if !others.isEmpty {
            var asked = splitArguments(split)
            let ids = others.map { "(\(asked.add($0, as: "image"))::bigint)" }.joined(separator: ", ")
            done = Set(try preparedRows("SELECT i.id FROM (VALUES \(ids)) AS i(id) WHERE \(isDone)", asked) {
                ImageID($0.int64("id"))
            })
            present = Set(try rows("SELECT id FROM images WHERE id = ANY(:others)",
                                   [":others": PostgresValue.ids(others.map(\.rawValue))]) { ImageID($0.int64("id")) })
        }
        return images.map {
            taken.contains($0) ? .taken : done.contains($0) ? .done : present.contains($0) ? .held : .gone
        }
    }

    public func reclassificationSplit(model: ModelID, recipe: Recipe) throws -> ReclassificationSplit {
        let since = try connection.scalarInt(ReclassificationSplit.startSQL,
                                             [":model": model, ":recipe_name": recipe.name, ":recipe_version": recipe.version])
        return ReclassificationSplit(model: model, recipe: recipe, since: since ?? Int64.min)
    }

    /// The values `ReclassificationSplit.doneSQL` names.
    private func splitArguments(_ split: ReclassificationSplit) -> PostgresArguments {
        [":model": split.model, ":recipe_name": split.recipe.name, ":recipe_version": split.recipe.version, ":since": split.since]
    }
}
