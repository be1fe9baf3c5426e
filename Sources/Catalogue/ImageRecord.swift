import Foundation

/// A stored image (without its thumbnail bytes: see `Catalogue.thumbnail(of:)`).
public struct ImageRecord: Sendable, Equatable {
    public let id: ImageID
    public let sha256: SHA256Digest
    public let byteSize: Int
    public let width: Int
    public let height: Int
    public let format: String
    public let firstImported: Date
}

/// A path where an image was seen, with the file's size and time then, and
/// whether the file was still there at the last look.
public struct KnownPath: Sendable, Equatable {
    public let path: String
    public let image: ImageID
    public let size: Int64
    public let modificationTimeNanoseconds: Int64
    /// The last time the file was seen (imported, or found by `prune`).
    public let lastSeen: Date
    /// True when the file was gone at the last look.
    public let isMissing: Bool
    /// When the last look other than an import's was (nil: none yet).
    public let checkedAt: Date?

    /// True when `file` has the size and time recorded here: it need not be hashed again.
    public func isUnchanged(_ file: SeenFile) -> Bool {
        file.size == size && file.modificationTimeNanoseconds == modificationTimeNanoseconds
    }
}
