internal import Catalogue
import Imaging

/// What `capture-times` did: images read, of which so many said when they were taken.
public struct CaptureTimeReport: Sendable, Encodable, Equatable {
    /// Images whose file was read for a capture time.
    public var read = 0
    /// Of those, the ones whose file says when it was taken.
    public var taken = 0
    /// Images with no file left as it was imported: not read; the next run tries again.
    public var noFile = 0

    enum CodingKeys: String, CodingKey {
        case read, taken, noFile = "no_file"
    }
}

extension OpenCatalogue {
    /// `capture-times`: for each image imported before capture times were kept, reads when it
    /// was taken from its own file (the first recorded one still there with its SHA-256:
    /// `OriginalFile`), from the header alone, and stores it, so `list --taken-after` and the
    /// pages know it as they know a newly imported one's. An image with no such file is left
    /// for a later run. `progress` gets the number of images looked at so far.
    public func readCaptureTimes(progress: (Int) -> Void = { _ in }) throws -> CaptureTimeReport {
        var report = CaptureTimeReport()
        try forEachImageAwaiting({ try $0.imagesAwaitingCaptureTime(after: $1, limit: $2) }, progress: progress) { image in
            let found = try reading { store, _ in try store.image(image).map { ($0.sha256, try store.pathsHere(of: image)) } }
            guard let (sha256, paths) = found else { return }
            guard let bytes = OriginalFile.bytes(of: sha256, paths: paths) else {
                report.noFile += 1
                return
            }
            // A header that cannot be read says nothing of when: recorded as read, without a time.
            let taken = (try? ImageDecoder().header(of: bytes))?.captureTime.map(TakenTime.init)
            try changing { store in try store.recordCaptureTime(taken, of: image) }
            report.read += 1
            if taken != nil { report.taken += 1 }
        }
        return report
    }
}
