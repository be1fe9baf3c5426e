#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole files with POSIX calls, so that a failure carries the system's
/// reason ("No such file or directory", "Is a directory", "Permission denied").
public enum ImageFile {
    /// Files larger than this are refused before reading: no photo needs a gigabyte.
    public static let maxFileSize = 1 << 30

    public static func read(_ path: String) throws(ImagingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(path, errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw ImagingError(.unreadable, "unreadable: is a directory", path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw ImagingError(.unreadable, "unreadable: not a regular file", path: path) }
        let size = Int(status.st_size)
        guard size <= maxFileSize else { throw ImagingError(.tooLarge, "file of \(size) bytes is larger than any image this tool reads", path: path) }
        // Read straight into the array's storage: no zero-filling first and no copy after,
        // which for a 3 MB photo is a measurable part of an import.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + done, size - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }   // the file shrank while we read it
                done += count
            }
            initialized = done
        }
        if failure != 0 { throw unreadable(path, failure) }
        return bytes
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(ImagingError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ImagingError(.unwritable, "cannot write: \(errorText(errno))", path: path) }
        defer { close(descriptor) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + done, bytes.count - done)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ImagingError(.unwritable, "cannot write: \(errorText(errno))", path: path)
            }
            done += count
        }
    }

    private static func unreadable(_ path: String, _ code: Int32) -> ImagingError {
        ImagingError(.unreadable, "unreadable: \(errorText(code))", path: path)
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
