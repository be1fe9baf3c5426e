import Foundation

/// When a photo was taken, as the catalogue keeps it (see migration 0013): the
/// camera's clock as the file writes it, read as if UTC, and its offset from
/// UTC in minutes when the file says.
public struct TakenTime: Sendable, Equatable {
    public var clock: Date
    public var offsetMinutes: Int?

    public init(clock: Date, offsetMinutes: Int?) {
        self.clock = clock
        self.offsetMinutes = offsetMinutes
    }
}
