import Foundation

/// A file that could not be imported, and why.
public struct ImportFailure: Sendable, Equatable {
    public let id: Int64
    public let path: String
    public let reason: String
    public let run: RunID?
    public let failedAt: Date
}

/// A path whose latest import attempt failed, one per path however often it
/// was tried. Size and time (when the file could be examined) let an
/// unchanged file be passed over without reading or reporting it again.
public struct FailingFile: Sendable, Equatable {
    public let path: String
    public let reason: String
    public let size: Int64?
    public let modificationTimeNanoseconds: Int64?
    public let attempts: Int
    public let firstFailed: Date
    public let lastFailed: Date

    /// True when `file` has the size and time of the latest failed attempt.
    public func isUnchanged(_ file: SeenFile) -> Bool {
        file.size == size && file.modificationTimeNanoseconds == modificationTimeNanoseconds
    }
}
