internal import Catalogue
import Imaging

/// What `fingerprints` did: thumbnails fingerprinted, and those that could not be read.
public struct FingerprintReport: Sendable, Encodable, Equatable {
    public var taken = 0
    /// Thumbnails that could not be decoded: left without (and looked at again next run).
    public var unreadable = 0
    /// Each of them, with why.
    public var failed: [UnreadableThumbnail] = []
}

extension OpenCatalogue {
    /// `fingerprints`: takes the perceptual fingerprints of every image imported before they
    /// were kept (or before the crops' or the garment's crops were), from its stored thumbnail
    /// only (as import takes them), and stores them. `progress` gets the number of images
    /// looked at so far.
    public func takeFingerprints(progress: (Int) -> Void = { _ in }) throws -> FingerprintReport {
        var report = FingerprintReport()
        let processor = ImageProcessor()
        try forEachImageAwaiting({ try $0.imagesAwaitingFingerprint(after: $1, limit: $2) }, progress: progress) { image in
            guard let fingerprint = try fromThumbnail(of: image, unreadable: &report.failed,
                                                      processor.fingerprint(ofThumbnail:)) else {
                return
            }
            try changing { store in try store.recordFingerprint(StoredFingerprint(fingerprint), of: image) }
            report.taken += 1
        }
        report.unreadable = report.failed.count
        return report
    }
}

extension StoredFingerprint {
    init(_ fingerprint: ImageFingerprint) {
        self.init(whole: fingerprint.whole, garment: fingerprint.garment, crops: fingerprint.crops,
                  garmentCrops: fingerprint.garmentCrops)
    }
}
