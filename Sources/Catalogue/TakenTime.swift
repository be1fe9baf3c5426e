import Foundation

/// When a photo was taken, as the catalogue keeps it (see migration 0013): the
/// camera's clock as the file writes it, read as if UTC, and its offset from
/// UTC in minutes when the file says.
public struct TakenTime: Sendable, Equatable {
    public var clock: Date
    public var offsetMinutes: Int?

    /// The offsets from UTC a clock keeps, in minutes: at most 14:59 hours either way, as
    /// import reads them from a file (Imaging's `CaptureTime`) and `--since` takes them from a
    /// person. The schema lets another program store up to a day, and 1440 was shown as a
    /// time's offset, "+24:00", which RFC 3339 (hours 00 to 23) does not allow.
    public static let offsets = -(14 * 60 + 59)...(14 * 60 + 59)

    public init(clock: Date, offsetMinutes: Int?) {
        self.clock = clock
        self.offsetMinutes = offsetMinutes
    }
}
