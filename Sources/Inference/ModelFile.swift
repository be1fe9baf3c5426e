import Files
import Foundation

/// An `.aimodel` file in memory: its description and its named weight tensors.
///
/// On disk it is a safetensors container: an 8-byte little-endian header
/// length, a JSON header naming each tensor's dtype, shape and byte range, and
/// the raw little-endian float32 data. The description lives in the header's
/// `__metadata__` map (strings only, so structured parts are JSON strings).
/// The catalogue images a fine-tune learned from are raw bytes in the data
/// section (the `U8` tensor `learned_images`), not hex in the header.
public struct ModelFile: Sendable, Equatable {
    public static let formatName = "wardrobe.aimodel"
    /// Larger files are refused unread: the bundled model is under 2 MB.
    public static let maxFileSize = 1 << 31

    public var description: ModelDescription
    public var tensors: [String: NDArray]
    /// The SHA-256 of each catalogue image the model learned a person's label from, 32
    /// bytes each, back to back (`TrainingMetadata.learnedImages` reads them). Kept in the
    /// data section: as hex in the header they took 73 bytes an image, and 14,400 made a
    /// header over `maximumHeaderBytes` that no command would load.
    public var learnedImageDigests: [UInt8]

    /// The name of the tensor (dtype `U8`, shape `[N, 32]`) that holds `learnedImageDigests`.
    public static let learnedImagesTensor = "learned_images"

    public init(description: ModelDescription, tensors: [String: NDArray], learnedImageDigests: [UInt8] = []) {
        precondition(learnedImageDigests.count % 32 == 0, "SHA-256 digests are 32 bytes each")
        self.description = description
        self.tensors = tensors
        self.learnedImageDigests = learnedImageDigests
    }

    public init(contentsOf url: URL) throws(ModelError) {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(url.path, maxSize: Self.maxFileSize)
        } catch {
            throw ModelError.unreadable(path: url.path, reason: error.reason)
        }
        try self.init(bytes: bytes)
    }

    public func write(to url: URL) throws(ModelError) {
        try write(to: try Self.destination(url.path))
    }

    /// Opens `path` for a model written later with `write(to:)`, the way `OutputFile`
    /// opens it: a missing folder, a folder or an unwritable place is refused now, so a
    /// command that makes a model over many minutes (`model train`) says so before it
    /// starts rather than after; a file already there is replaced only once the new one
    /// is complete.
    public static func destination(_ path: String, sparing inputs: [OutputFile.Input] = []) throws(ModelError) -> OutputFile {
        do {
            return try OutputFile(path: path, sparing: inputs)
        } catch {
            throw ModelError.unwritable(path: path, reason: error.reason)
        }
    }

    /// Writes the whole file to `destination` (from `destination(_:)`) and completes it.
    public func write(to destination: OutputFile) throws(ModelError) {
        do {
            try destination.write(serialized())
            try destination.finish()
        } catch {
            throw ModelError.unwritable(path: destination.path, reason: error.reason)
        }
    }
}
