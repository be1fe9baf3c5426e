import Foundation

/// One stored classification, as `history` and exports give it.
public struct ClassificationRecord: Sendable, Equatable {
    public let id: ClassificationID
    public let image: ImageID
    public let run: RunID
    public let model: ModelID
    public let recipe: Recipe
    public let logits: [Float]
    public let label: Int
    public let confidence: Double
    public let classifiedAt: Date
}

/// One entry of an image's history: the classification with the names of its
/// run's command and its model.
public struct HistoryEntry: Sendable, Equatable {
    public let classification: ClassificationRecord
    public let command: String
    public let modelName: String
    public let modelVersion: String
}

/// An image with its current (latest) classification, as listings give it.
public struct CurrentClassification: Sendable, Equatable {
    public let image: ImageID
    public let sha256: SHA256Digest
    public let classification: ClassificationID
    public let model: ModelID
    public let label: Int
    public let confidence: Double
    public let classifiedAt: Date
    public let firstImported: Date
    public let width: Int
    public let height: Int
    public let format: String
    /// The path where the image was seen most recently, if any.
    public let path: String?
    /// A person's latest correction of the label, if any; it outranks `label` for display.
    public let correctedLabel: Int?
}
