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
