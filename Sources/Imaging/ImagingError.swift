/// Everything that can go wrong turning bytes into pixels, thumbnails and tensors.
/// The description is one line a user can act on, naming the file when one is known.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The file holds no bytes at all.
        case empty
        /// The data stops before the image does.
        case truncated
        /// The data is an image of a known format but is damaged (including decoder warnings).
        case corrupt
        /// The content is not an image format this module reads.
        case notAnImage
        /// The file could not be read (missing, a directory, no permission, I/O error).
        case unreadable
        /// The file could not be read because the process or the system lacks open files or
        /// memory (`RegularFile.shortage`): the file is not at fault, and reads once there is room.
        case outOfResources
        /// The file could not be written (no such folder, no permission, a full disk).
        case unwritable
        /// The header announces more pixels or a larger side than the configured limits.
        case tooLarge
        /// Valid input this module does not handle (an unusual JPEG colour space, for example).
        case unsupported
        /// Encoding an image failed.
        case encodingFailed
        /// No prep recipe has the requested name.
        case unknownRecipe
    }

    public var kind: Kind
    /// What exactly is wrong, lowercase, without the file name.
    public var reason: String
    /// The file the bytes came from, when they came from one.
    public var path: String?

    public init(_ kind: Kind, _ reason: String, path: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.path = path
    }

    public var description: String {
        path.map { "\($0): \(reason)" } ?? reason
    }

    /// The same error, naming the file it concerns.
    public func naming(_ path: String) -> ImagingError {
        ImagingError(kind, reason, path: path)
    }

    /// A library's own words for why it stopped, or `otherwise` when they say nothing: a
    /// TurboJPEG handle answers "No error" when the call that failed recorded no reason, a
    /// libheif error can carry "Success", and a message buffer can stay empty. One line either way.
    static func libraryReason(_ message: String?, otherwise: String) -> String {
        let said = (message ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return ["", "no error", "success"].contains(said.lowercased()) ? otherwise : said
    }
}
