internal import Catalogue
import Imaging

extension TakenTime {
    /// As the catalogue keeps what a photo's EXIF says.
    init(_ capture: CaptureTime) {
        self.init(clock: capture.clock, offsetMinutes: capture.offsetMinutes)
    }
}

extension CaptureTime {
    /// As a photo's EXIF said it, from what the catalogue keeps (for its `text`).
    init(_ taken: TakenTime) {
        self.init(clock: taken.clock, offsetMinutes: taken.offsetMinutes)
    }
}
