internal import Catalogue
import Foundation

/// The server's pages of images, in the words of the pages: which images
/// (`Query`, paged by key instead of by offset, so page 5,000 costs what page 1
/// costs) and each image as a page shows it (`Item`).
public enum Gallery {
    public enum Order: String, Sendable, CaseIterable {
        /// Lowest confidence first: what the model is least sure of.
        case uncertain
        /// Highest confidence first.
        case confident
        /// Most recently imported first.
        case newest
    }

    /// Where the previous page ended: its last image and that image's confidence.
    public struct Cursor: Sendable, Equatable {
        public var confidence: Double
        public var image: Int64

        public init(confidence: Double, image: Int64) {
            self.confidence = confidence
            self.image = image
        }
    }

    public struct Query: Sendable, Equatable {
        /// Which images (`list`'s filters).
        public var filter: ImageFilter
        public var order: Order
        /// Start after this image (nil: the first page).
        public var after: Cursor?
        public var limit: Int

        public init(filter: ImageFilter = ImageFilter(), order: Order = .newest, after: Cursor? = nil, limit: Int = 48) {
            self.filter = filter
            self.order = order
            self.after = after
            self.limit = limit
        }

        func catalogueQuery(in catalogue: any CatalogueStore) throws -> GalleryQuery {
            let order: GalleryQuery.Order = switch self.order {
            case .uncertain: .uncertain
            case .confident: .confident
            case .newest: .newest
            }
            return GalleryQuery(try filter.selection(in: catalogue), order: order,
                                after: after.map { GalleryQuery.Cursor(confidence: $0.confidence, image: ImageID($0.image)) },
                                limit: limit)
        }
    }

    /// An image with its current classification.
    public struct Item: Sendable, Equatable {
        public var image: Int64
        /// SHA-256 in lower-case hex: the thumbnail's address.
        public var sha256: String
        /// The model's label.
        public var label: Int
        public var confidence: Double
        /// The image's best path: an existing one, this machine's first, the most recently seen; nil if it has none.
        public var path: String?
        /// A person's label (0...9 or `LabelMatcher.noneLabel`), if any; it outranks `label`.
        public var correctedLabel: Int?
        /// The garment's colour (a palette name): a person's, else the measured one; nil when neither.
        public var colour: String?
        /// True when a person gave the colour.
        public var colourByPerson: Bool

        /// The label pages show: the person's, else the model's.
        public var effectiveLabel: Int { correctedLabel ?? label }
        /// Where the page after this image starts.
        public var cursor: Cursor { Cursor(confidence: confidence, image: image) }

        init(_ current: CurrentClassification) {
            image = current.image.rawValue
            sha256 = current.sha256.hex
            label = current.label
            confidence = current.confidence
            path = current.path
            correctedLabel = current.correctedLabel
            colour = current.personColour ?? current.colours?.main
            colourByPerson = current.personColour != nil
        }
    }

    /// A stored thumbnail with the type a browser is told.
    public struct Thumbnail: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
    }
}
