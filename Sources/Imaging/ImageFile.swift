#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Files

/// Reading and writing whole files with POSIX calls, so that a failure carries the system's
/// reason ("No such file or directory", "Is a directory", "Permission denied").
public enum ImageFile {
    /// Files larger than this are refused before reading: no photo needs a gigabyte.
    public static let maxFileSize = 1 << 30

    /// The whole file of an image. Anything but a regular file (a FIFO, a device) is refused
    /// without blocking on it, as is a file larger than `maxFileSize`; so is a file whose
    /// first bytes are no image this module reads, with the reason decoding gives, after
    /// reading only those (a gigabyte of something else named .jpg was read and hashed whole
    /// for a verdict its first twelve bytes give).
    public static func read(_ path: String) throws(ImagingError) -> [UInt8] {
        let head = try read(path, first: ImageFormat.sniffedLength)
        do {
            _ = try ImageDecoder.format(of: head)
        } catch {
            throw error.naming(path)
        }
        // A file shorter than what the sniff reads is all there already.
        if head.count < ImageFormat.sniffedLength { return head }
        return try read(path, first: Int.max)
    }

    private static func read(_ path: String, first limit: Int) throws(ImagingError) -> [UInt8] {
        do {
            return try RegularFile.read(path, maxSize: maxFileSize, first: limit)
        } catch {
            switch error.kind {
            case .tooLarge:
                throw ImagingError(.tooLarge, "\(error.reason); no photo is that large", path: path)
            default:
                throw ImagingError(.unreadable, "unreadable: \(error.reason)", path: path)
            }
        }
    }

    /// Writes a whole file the way `OutputFile` does: a new path or a regular file
    /// (also behind a link) replaced only once complete, a FIFO or character device
    /// written as a stream, anything else refused.
    public static func write(_ bytes: [UInt8], to path: String, sparing inputs: [OutputFile.Input] = []) throws(ImagingError) {
        do {
            let file = try OutputFile(path: path, sparing: inputs)
            try file.write(bytes)
            try file.finish()
        } catch {
            throw ImagingError(.unwritable, "cannot write: \(error.reason)", path: path)
        }
    }
}
