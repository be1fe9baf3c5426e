import Foundation

/// One adoption of a model by a catalogue (`wardrobe model use`).
public struct ModelAdoption: Sendable, Equatable {
    public let id: Int64
    /// Nil: the catalogue went back to the bundled model.
    public let model: ModelID?
    public let sourcePath: String?
    public let command: String
    public let adoptedAt: Date
}

extension Catalogue {
    /// A setting of this catalogue, nil when never set.
    public func setting(_ key: String) throws -> String? {
        let rows = try database.rows("SELECT value FROM settings WHERE key = :key", [":key": key]) { $0.text("value") }
        return rows.first
    }

    public func setSetting(_ key: String, to value: String, at date: Date = Date()) throws {
        try database.execute("""
            INSERT INTO settings (key, value, updated_at) VALUES (:key, :value, :at)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, [":key": key, ":value": value, ":at": date.catalogueMilliseconds])
    }

    /// Records that the catalogue now uses `model` (registered already; nil
    /// for the bundled one), optionally with the model file's bytes so the
    /// catalogue does not depend on the file staying where it was.
    @discardableResult
    public func adoptModel(_ model: ModelID?, file: [UInt8]? = nil, sourcePath: String? = nil, command: String,
                           at date: Date = Date()) throws -> Int64 {
        try database.execute("""
            INSERT INTO model_adoptions (model_id, file, source_path, command, adopted_at)
            VALUES (:model, :file, :source_path, :command, :at)
            """, [":model": model, ":file": file, ":source_path": sourcePath, ":command": command, ":at": date.catalogueMilliseconds])
        return database.lastInsertedRowID
    }

    /// The latest adoption, if any.
    public func adoptedModel() throws -> ModelAdoption? {
        try database.rows("""
            SELECT id, model_id, source_path, command, adopted_at FROM model_adoptions ORDER BY id DESC LIMIT 1
            """) { row in
            ModelAdoption(id: row.int64("id"), model: row.isNull("model_id") ? nil : ModelID(row.int64("model_id")),
                          sourcePath: row.optionalText("source_path"), command: row.text("command"),
                          adoptedAt: try row.date("adopted_at", row: "model adoption \(row.int64("id"))"))
        }.first
    }

    /// The model file's bytes kept with an adoption, if they were.
    public func adoptedModelFile(_ adoption: Int64) throws -> [UInt8]? {
        let rows = try database.rows("SELECT file FROM model_adoptions WHERE id = :adoption",
                                     [":adoption": adoption]) { $0.optionalBlob("file") }
        return rows.first ?? nil
    }
}
