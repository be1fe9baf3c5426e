import Foundation

/// A model file to register, known by the SHA-256 of its bytes.
public struct NewModel: Sendable, Equatable {
    public var name: String
    public var version: String
    public var sha256: SHA256Digest
    public var labels: [String]
    public var parameterCount: Int
    /// The catalogue images (content hashes) whose person label the model
    /// learned from, as its file records: left out of its agreement figures.
    public var learnedImages: [SHA256Digest]

    public init(name: String, version: String, sha256: SHA256Digest, labels: [String], parameterCount: Int,
                learnedImages: [SHA256Digest] = []) {
        self.name = name
        self.version = version
        self.sha256 = sha256
        self.labels = labels
        self.parameterCount = parameterCount
        self.learnedImages = learnedImages
    }
}

public struct ModelRecord: Sendable, Equatable {
    public let id: ModelID
    public let name: String
    public let version: String
    public let sha256: SHA256Digest
    public let labels: [String]
    public let parameterCount: Int
    public let registeredAt: Date
}

extension ModelRecord {
    /// A model's columns as every query of whole models SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = "id, name, version, sha256, labels, parameter_count, registered_at"

        private let id, name, version, sha256, labels, parameterCount, registeredAt: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            name = statement.column("name")
            version = statement.column("version")
            sha256 = statement.column("sha256")
            labels = statement.column("labels")
            parameterCount = statement.column("parameter_count")
            registeredAt = statement.column("registered_at")
        }

        func record(_ row: some CatalogueRow) throws -> ModelRecord {
            let labelsJSON = row.text(labels)
            let decoded: [String]
            do {
                decoded = try JSONDecoder().decode([String].self, from: Data(labelsJSON.utf8))
            } catch {
                throw CatalogueError.invalidArgument("\(row.location): model \(row.int64(id)) has unreadable labels: \(labelsJSON)")
            }
            return ModelRecord(id: ModelID(row.int64(id)), name: row.text(name), version: row.text(version),
                               sha256: try SHA256Digest(bytes: row.blob(sha256)), labels: decoded,
                               parameterCount: row.int(parameterCount),
                               registeredAt: try row.date(registeredAt, row: "model \(row.int64(id))"))
        }
    }
}
