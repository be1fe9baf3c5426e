import Foundation

/// A model file to register, known by the SHA-256 of its bytes.
public struct NewModel: Sendable, Equatable {
    public var name: String
    public var version: String
    public var sha256: SHA256Digest
    public var labels: [String]
    public var parameterCount: Int

    public init(name: String, version: String, sha256: SHA256Digest, labels: [String], parameterCount: Int) {
        self.name = name
        self.version = version
        self.sha256 = sha256
        self.labels = labels
        self.parameterCount = parameterCount
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
