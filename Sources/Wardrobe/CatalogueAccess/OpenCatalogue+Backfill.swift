internal import Catalogue
import Imaging

/// A stored thumbnail a re-run from thumbnails (`colours`, `fingerprints`) could not decode,
/// and why: named on stderr as `reclassify` names its own, where the runs only counted them
/// and a person could not tell which images to look at.
public struct UnreadableThumbnail: Sendable, Encodable, Equatable {
    public var image: Int64
    public var reason: String
}

extension OpenCatalogue {
    /// The walk of a re-run that fills in what images imported by an earlier version lack
    /// (`capture-times`, `colours`): the images `awaiting` names, in batches of 256 by id, each
    /// batch read in its own snapshot, each image handed to `body` in turn. An image `body`
    /// leaves as it was is passed over, not met again in this run. `progress` gets the number
    /// of images looked at so far.
    func forEachImageAwaiting(_ awaiting: (any CatalogueStore, _ after: ImageID?, _ limit: Int) throws -> [ImageID],
                              progress: (Int) -> Void, _ body: (ImageID) throws -> Void) throws {
        var after: ImageID?
        var looked = 0
        while let batch = Optional(try reading { store, _ in try awaiting(store, after, 256) }), let last = batch.last {
            after = last
            for image in batch {
                looked += 1
                progress(looked)
                try body(image)
            }
        }
    }

    /// The thumbnail of `image` decoded by `decode`, else the reason it could not be added to
    /// `unreadable`; nil too for an image forgotten since its batch was read, which is no
    /// thumbnail that could not be decoded.
    func fromThumbnail<T>(of image: ImageID, unreadable: inout [UnreadableThumbnail],
                          _ decode: ([UInt8]) throws(ImagingError) -> T) throws -> T? {
        guard let thumbnail = try reading({ store, _ in try store.thumbnail(of: image) }) else { return nil }
        do {
            return try decode(thumbnail)
        } catch {
            unreadable.append(UnreadableThumbnail(image: image.rawValue, reason: "stored thumbnail: \(error)"))
            return nil
        }
    }
}
