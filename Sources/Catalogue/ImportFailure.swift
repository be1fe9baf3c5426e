import Foundation

/// A file that could not be imported, and why.
public struct ImportFailure: Sendable, Equatable {
    public let id: Int64
    public let path: String
    public let reason: String
    public let run: RunID?
    public let failedAt: Date
}

/// A person's label for an image; later runs never overwrite it.
public struct Correction: Sendable, Equatable {
    public let image: ImageID
    public let label: Int
    public let correctedAt: Date
}
