internal import Catalogue
import Foundation
import Imaging

/// What `colours` did: thumbnails measured, and those that could not be read.
public struct ColourReport: Sendable, Encodable, Equatable {
    public var measured = 0
    /// Thumbnails that could not be decoded: left unmeasured (and looked at again next run).
    public var unreadable = 0
    /// Each of them, with why.
    public var failed: [UnreadableThumbnail] = []
    /// True when every image was measured again, because an earlier rule (or one the catalogue
    /// did not record) had measured the colours it held.
    public var again = false
    /// The rule that measured them (`GarmentColours.rule`).
    public var rule = GarmentColours.rule
}

extension OpenCatalogue {
    /// `colours`: measures the garment's main colours of every image imported before they
    /// were kept, from its stored thumbnail only (as import measures them), and stores them.
    /// When the catalogue's colours were measured by an earlier rule than this version's
    /// (`GarmentColours.rule`; a catalogue that never recorded one counts as the first), every
    /// image is measured again, and the rule is recorded once all are: an interrupted run
    /// starts over. `progress` gets the number of images looked at so far.
    public func measureColours(progress: (Int) -> Void = { _ in }) throws -> ColourReport {
        let again = try reading { store, _ in try store.colourRule() ?? 1 } < GarmentColours.rule
        var report = ColourReport(again: again)
        let processor = ImageProcessor()
        try forEachImageAwaiting({ try $0.imagesAwaitingColours(after: $1, limit: $2, again: again) },
                                 progress: progress) { image in
            guard let colours = try fromThumbnail(of: image, unreadable: &report.failed, processor.colours(ofThumbnail:)) else {
                return
            }
            if report.measured == 0, !again { try changing { store in try store.recordColourRuleBeforeMeasuring() } }
            try changing { store in try store.recordColours(StoredColours(colours), of: image) }
            report.measured += 1
        }
        if again { try changing { store in try store.recordColourRule(GarmentColours.rule, at: Date()) } }
        report.unreadable = report.failed.count
        return report
    }
}
