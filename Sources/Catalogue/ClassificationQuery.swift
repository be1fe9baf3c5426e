import Foundation

/// Which images to list or count by their current classification and
/// effective label, and in what order.
/// Every filter left nil matches everything.
public struct ClassificationQuery: Sendable, Equatable {
    public enum Order: Sendable, Equatable {
        case confidenceDescending
        case confidenceAscending
        case newestClassified
        case newestImported
        case oldestImported
        case imageID
        /// By effective label, then highest confidence first.
        case effectiveLabel
    }

    /// The effective label: a person's label (0...9 or `Catalogue.noneLabel`),
    /// else the model's current one.
    public var label: Int?
    /// True: only images a person labelled; false: only those they did not.
    public var corrected: Bool?
    /// Only images none of whose paths existed at the last look.
    public var missing: Bool
    /// Only images with a path matching this GLOB pattern.
    public var pathPattern: String?
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
                imported: Range<Date>? = nil, model: ModelID? = nil, corrected: Bool? = nil,
                missing: Bool = false, pathPattern: String? = nil,
                order: Order = .confidenceDescending, limit: Int? = nil, offset: Int = 0) {
        self.label = label
        self.corrected = corrected
        self.missing = missing
        self.pathPattern = pathPattern
        self.confidence = confidence
        self.classified = classified
        self.imported = imported
        self.model = model
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}
