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
                VALUES (:name, :version, :sha256, :labels, :parameter_count, :registered_at) ON CONFLICT (sha256) DO NOTHING
                """, [":name": model.name, ":version": model.version, ":sha256": model.sha256.bytes, ":labels": labels,
                      ":parameter_count": model.parameterCount, ":registered_at": date.catalogueMilliseconds])
            guard let id = try database.scalarInt("SELECT id FROM models WHERE sha256 = :sha256",
                                                  [":sha256": model.sha256.bytes]) else {
                throw CatalogueError.notFound("model \(model.sha256.hex) vanished after registering")
            }
            if !model.learnedImages.isEmpty,
               try database.scalarInt("SELECT count(*) FROM model_learned_images WHERE model_id = :id",
                                      [":id": id]) ?? 0 < model.learnedImages.count {
                let insert = try database.prepare(
                    "INSERT INTO model_learned_images (model_id, sha256) VALUES (:model, :sha256) ON CONFLICT DO NOTHING")
                for hash in model.learnedImages {
                    try insert.bind([":model": id, ":sha256": hash.bytes])
                    try insert.perform()
                }
            }
            return ModelID(id)
        }
    }

    public func model(_ id: ModelID) throws -> ModelRecord? {
        try models(where: "id = :id", [":id": id]).first
    }

    public func model(sha256: SHA256Digest) throws -> ModelRecord? {
        try models(where: "sha256 = :sha256", [":sha256": sha256.bytes]).first
    }

    /// Every registered model, oldest first.
    public func models() throws -> [ModelRecord] {
        try models(where: "1", [:])
    }

    private func models(where condition: String, _ arguments: SQLArguments) throws -> [ModelRecord] {
        try database.records("SELECT \(ModelRecord.Columns.list) FROM models WHERE \(condition) ORDER BY id", arguments,
                             as: ModelRecord.Columns.self)
    }
}
