import Foundation

extension Catalogue {
    /// Registers a model with the images it learned from; registering the
    /// same file (same hash) again returns the id it already has and adds
    /// only learned images not yet kept (a model first registered by a
    /// version that did not keep them).
    @discardableResult
    public func registerModel(_ model: NewModel, at date: Date = Date()) throws -> ModelID {
        let labels = String(decoding: try JSONEncoder().encode(model.labels), as: UTF8.self)
        return try database.transaction {
            try database.execute("""
                INSERT INTO models (name, version, sha256, labels, parameter_count, registered_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING
                """, model.name, model.version, model.sha256.bytes, labels, model.parameterCount,
                date.catalogueMilliseconds)
            guard let id = try database.scalarInt("SELECT id FROM models WHERE sha256 = ?", model.sha256.bytes) else {
                throw CatalogueError.notFound("model \(model.sha256.hex) vanished after registering")
            }
            if !model.learnedImages.isEmpty,
               try database.scalarInt("SELECT count(*) FROM model_learned_images WHERE model_id = ?", id) ?? 0 < model.learnedImages.count {
                let insert = try database.prepare("INSERT INTO model_learned_images (model_id, sha256) VALUES (?, ?) ON CONFLICT DO NOTHING")
                for hash in model.learnedImages {
                    try insert.bind([id, hash.bytes])
                    try insert.perform()
                }
            }
            return ModelID(id)
        }
    }

    public func model(_ id: ModelID) throws -> ModelRecord? {
        try models(where: "id = ?", [id]).first
    }

    public func model(sha256: SHA256Digest) throws -> ModelRecord? {
        try models(where: "sha256 = ?", [sha256.bytes]).first
    }

    /// Every registered model, oldest first.
    public func models() throws -> [ModelRecord] {
        try models(where: "1", [])
    }

    private func models(where condition: String, _ values: [(any SQLBindable)?]) throws -> [ModelRecord] {
        let rows = try database.rows("""
            SELECT id, name, version, sha256, labels, parameter_count, registered_at
            FROM models WHERE \(condition) ORDER BY id
            """, values) { row in
            (row.int64(0), row.text(1), row.text(2), row.blob(3), row.text(4), row.int(5), try row.date(6, row: "model \(row.int64(0))"))
        }
        return try rows.map { id, name, version, hash, labelsJSON, parameters, registered in
            let labels: [String]
            do {
                labels = try JSONDecoder().decode([String].self, from: Data(labelsJSON.utf8))
            } catch {
                throw CatalogueError.invalidArgument("\(path): model \(id) has unreadable labels: \(labelsJSON)")
            }
            return ModelRecord(id: ModelID(id), name: name, version: version, sha256: try SHA256Digest(bytes: hash),
                               labels: labels, parameterCount: parameters,
                               registeredAt: registered)
        }
    }
}
