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

    /// The effective label (0...9 or `Catalogue.noneLabel`).
    public var label: Int?
    /// True: only images a person labelled; false: only those they did not.
    public var corrected: Bool?
    public var confidence: ClosedRange<Double>?
    public var order: Order
    /// Start after this image (nil: the first page).
    public var after: Cursor?
    public var limit: Int

    public init(label: Int? = nil, corrected: Bool? = nil, confidence: ClosedRange<Double>? = nil,
                order: Order = .newest, after: Cursor? = nil, limit: Int = 48) {
        self.label = label
        self.corrected = corrected
        self.confidence = confidence
        self.order = order
        self.after = after
        self.limit = limit
    }
}
