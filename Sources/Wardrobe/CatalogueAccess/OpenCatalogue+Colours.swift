internal import Catalogue
import Imaging

/// What `colours` did: thumbnails measured, and those that could not be read.
public struct ColourReport: Sendable, Encodable, Equatable {
    public var measured = 0
    /// Thumbnails that could not be decoded: left unmeasured (and looked at again next run).
    public var unreadable = 0
}

extension OpenCatalogue {
    /// `colours`: measures the garment's main colours of every image imported before they
    /// were kept, from its stored thumbnail only (as import measures them), and stores them.
    /// `progress` gets the number of images looked at so far.
    public func measureColours(progress: (Int) -> Void = { _ in }) throws -> ColourReport {
        var report = ColourReport()
        let processor = ImageProcessor()
        try forEachImageAwaiting({ try $0.imagesAwaitingColours(after: $1, limit: $2) }, progress: progress) { image in
            guard let thumbnail = try reading({ store, _ in try store.thumbnail(of: image) }),
                  let colours = try? processor.colours(ofThumbnail: thumbnail) else {
                report.unreadable += 1
                return
            }
            try changing { store in try store.recordColours(StoredColours(colours), of: image) }
            report.measured += 1
        }
        return report
    }
}
