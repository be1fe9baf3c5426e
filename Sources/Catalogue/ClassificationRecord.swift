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
    /// How the run that made it ended (or that it still runs).
    public let runState: RunState
}

/// An image with its current (latest) classification, as listings give it.
public struct CurrentClassification: Sendable, Equatable {
    public let image: ImageID
    public let sha256: SHA256Digest
    public let classification: ClassificationID
    public let model: ModelID
    public let recipe: Recipe
    /// The model's label.
    public let label: Int
    public let confidence: Double
    public let classifiedAt: Date
    public let firstImported: Date
    /// When the photo was taken, as its file said; nil when it did not.
    public var taken: TakenTime? = nil
    /// The garment's main colours; nil when the image was never measured.
    public var colours: StoredColours? = nil
    /// The colour a person gave the garment, which outranks the measured one.
    public var personColour: String? = nil
    public let width: Int
    public let height: Int
    public let format: String
    /// The image's best path: an existing one, this machine's first, the most recently seen; nil if it has none.
    public let path: String?
    /// The machine `path` was seen on (`Machine`).
    public var pathMachine: String? = nil
    /// True when none of the image's paths existed at the last look.
    public let pathMissing: Bool
    /// A person's label (0...9 or `Catalogue.noneLabel`), if any; it outranks `label`.
    public let correctedLabel: Int?

    /// The label queries use: the person's, else the model's.
    public var effectiveLabel: Int { correctedLabel ?? label }
}
