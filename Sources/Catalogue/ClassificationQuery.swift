import Foundation

/// Which images to list or count (`ImageSelection`), in what order, and
/// which part of them.
public struct ClassificationQuery: Sendable, Equatable {
    public enum Order: Sendable, Equatable {
        case confidenceDescending
        case confidenceAscending
        case newestClassified
        case newestImported
        case oldestImported
        /// Most recently taken first (by the camera's clock); images with no capture time last.
        case newestTaken
        case imageID
        /// By effective label, then highest confidence first.
        case effectiveLabel
    }

    /// Which images.
    public var selection: ImageSelection
    public var order: Order
    public var limit: Int?
    public var offset: Int

    public init(_ selection: ImageSelection, order: Order = .confidenceDescending, limit: Int? = nil, offset: Int = 0) {
        self.selection = selection
        self.order = order
        self.limit = limit
        self.offset = offset
    }

    public init(label: Int? = nil, confidence: ClosedRange<Double>? = nil, classified: Range<Date>? = nil,
                imported: Range<Date>? = nil, model: ModelID? = nil, corrected: Bool? = nil,
                missing: Bool = false, pathPattern: String? = nil,
                order: Order = .confidenceDescending, limit: Int? = nil, offset: Int = 0) {
        self.init(ImageSelection(label: label, corrected: corrected, missing: missing, pathPattern: pathPattern,
                                 confidence: confidence, classified: classified, imported: imported, model: model),
                  order: order, limit: limit, offset: offset)
    }
}
