/// One page of images for a browser, paged by key instead of by offset: the
/// page after the last one shown starts from that image's sort key, so page
/// 5,000 costs what page 1 costs.
public struct GalleryQuery: Sendable, Equatable {
    public enum Order: String, Sendable, CaseIterable {
        /// Lowest confidence first: what the model is least sure of.
        case uncertain
        /// Highest confidence first.
        case confident
        /// Most recently imported first (image ids grow with each import).
        case newest
    }

    /// Where the previous page ended: its last image and that image's confidence.
    public struct Cursor: Sendable, Equatable {
        public var confidence: Double
        public var image: ImageID

        public init(confidence: Double, image: ImageID) {
            self.confidence = confidence
            self.image = image
        }
    }

    /// Which images.
    public var selection: ImageSelection
    public var order: Order
    /// Start after this image (nil: the first page).
    public var after: Cursor?
    public var limit: Int

    public init(_ selection: ImageSelection, order: Order = .newest, after: Cursor? = nil, limit: Int = 48) {
        self.selection = selection
        self.order = order
        self.after = after
        self.limit = limit
    }

    public init(label: Int? = nil, corrected: Bool? = nil, confidence: ClosedRange<Double>? = nil,
                order: Order = .newest, after: Cursor? = nil, limit: Int = 48) {
        self.init(ImageSelection(label: label, corrected: corrected, confidence: confidence), order: order, after: after,
                  limit: limit)
    }
}
