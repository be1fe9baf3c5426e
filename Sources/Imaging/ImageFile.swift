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
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, maxSize: maxFileSize, peek: ImageFormat.sniffedLength) { head in
                (try? ImageDecoder.format(of: head)) != nil
            }
        } catch {
            throw failure(error, path: path)
        }
        // Refused, `bytes` is the file's first bytes, which say why; read whole, they still sniff.
        do {
            _ = try ImageDecoder.format(of: bytes)
        } catch {
            throw error.naming(path)
        }
        return bytes
    }

    /// A reading failure as this module says it.
    private static func failure(_ error: RegularFile.Failure, path: String) -> ImagingError {
        switch error.kind {
        case .tooLarge: ImagingError(.tooLarge, "\(error.reason); no photo is that large", path: path)
        case .outOfResources: ImagingError(.outOfResources, "cannot be read now: \(error.reason)", path: path)
        default: ImagingError(.unreadable, "unreadable: \(error.reason)", path: path)
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
