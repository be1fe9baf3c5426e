import Foundation

/// Which current classifications to list or count, and in what order.
/// Every filter left nil matches everything.
public struct ClassificationQuery: Sendable, Equatable {
    public enum Order: Sendable, Equatable {
        case confidenceDescending
        case confidenceAscending
        case newestClassified
        case newestImported
        case oldestImported
        case imageID
    }

    /// The model's current label (corrections do not change what this matches).
    public var label: Int?
    public var confidence: ClosedRange<Double>?
    /// When the current classification was made.
    public var classified: Range<Date>?
    /// When the image was first imported.
    public var imported: Range<Date>?
    /// Only images whose current classification came from this model.
    public var model: ModelID?
    public var order: Order
    public var limit: Int?
    public var offset: Int

    public init(label: Int? = nil, confidence: ClosedRange<Double>? = nil, classified: Range<Date>? = nil,
                imported: Range<Date>? = nil, model: ModelID? = nil,
                order: Order = .confidenceDescending, limit: Int? = nil, offset: Int = 0) {
        self.label = label
        self.confidence = confidence
        self.classified = classified
        self.imported = imported
        self.model = model
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}
