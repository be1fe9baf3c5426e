import Foundation

/// Leases on images (see `Catalogue+ImageLeases`), a take in one statement, in image order
/// as the files' are (`PostgresCatalogue+Leases`), then one more for what the split has done
/// of those not taken.
extension PostgresCatalogue {
    public func leaseImages(_ images: [ImageID], in split: ReclassificationSplit, owner: String,
                            until: Date, at date: Date) throws -> [ImageLease] {
        guard !images.isEmpty else { return [] }
        var parameters = PostgresParameters()
        let holder = parameters.add(owner), expires = parameters.add(until.catalogueMilliseconds)
        let now = parameters.add(date.catalogueMilliseconds)
        let isDone = doneSQL(image: "i.id", split: split, parameters: &parameters)
        let ids = images.map { "(\(parameters.add($0))::bigint)" }.joined(separator: ", ")
        // Prepared: takes of a run are mostly of one size, so of one statement.
        let taken = Set(try preparedRows("""
            INSERT INTO image_leases AS l (image_id, owner, expires_at)
            SELECT i.id, \(holder), \(expires) FROM (VALUES \(ids)) AS i(id)
            WHERE NOT \(isDone)
            ORDER BY i.id
            ON CONFLICT (image_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                WHERE l.expires_at < \(now)
            RETURNING l.image_id
            """, parameters.values) { ImageID($0.int64("image_id")) })
        let others = images.filter { !taken.contains($0) }
        var done: Set<ImageID> = []
        if !others.isEmpty {
            var asked = PostgresParameters()
            let isDone = doneSQL(image: "i.id", split: split, parameters: &asked)
            let ids = others.map { "(\(asked.add($0))::bigint)" }.joined(separator: ", ")
            done = Set(try preparedRows("SELECT i.id FROM (VALUES \(ids)) AS i(id) WHERE \(isDone)", asked.values) {
                ImageID($0.int64("id"))
            })
        }
        return images.map { taken.contains($0) ? .taken : done.contains($0) ? .done : .held }
    }

    public func reclassificationSplit(model: ModelID, recipe: Recipe) throws -> ReclassificationSplit {
        let since = try connection.scalarInt(
            ReclassificationSplit.startSQL(model: "$1", recipeName: "$2", recipeVersion: "$3"),
            model, recipe.name, recipe.version)
        return ReclassificationSplit(model: model, recipe: recipe, since: since ?? Int64.min)
    }

    private func doneSQL(image: String, split: ReclassificationSplit, parameters: inout PostgresParameters) -> String {
        ReclassificationSplit.doneSQL(image: image, model: parameters.add(split.model),
                                      recipeName: parameters.add(split.recipe.name),
                                      recipeVersion: parameters.add(split.recipe.version),
                                      since: parameters.add(split.since))
    }
}
