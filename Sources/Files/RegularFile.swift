#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening and reading files that must be regular files (photos, models, maps, data
/// sets). A path can name a FIFO, a device or a socket, even one swapped in after a folder
/// walk; a plain `open` of a FIFO blocks until a writer comes, forever. So every file is
/// opened with `O_NONBLOCK`, its type checked on the descriptor, and anything but a
/// regular file refused at once with a reason.
public enum RegularFile {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// The path names nothing (or a link to nothing).
            case missing
            case directory
            /// A FIFO, device, socket: anything that is not a regular file or a folder.
            case notRegular
            case tooLarge
            /// A file the command reads, which an output must not replace (`OutputFile.Input`).
            case input
            /// Writing to a pipe whose reader has gone (`| head`): not worth a message.
            case closedPipe
            /// The process or the system is out of something every file needs (open files,
            /// memory): nothing is wrong with the file, and it reads once there is room again.
            case outOfResources
            /// Any other reason the system gave (permission, I/O error).
            case system
        }

        public var kind: Kind
        /// Lowercase, one line, without the path: "not a regular file (a FIFO)".
        public var reason: String

        public var description: String { reason }
    }

    /// Opens `path` for reading without ever blocking on it, and returns the descriptor of
    /// a regular file (blocking again, for ordinary reads) with its size. The caller closes it.
    public static func open(_ path: String) throws(Failure) -> (descriptor: Int32, size: Int) {
        let descriptor = PathName.withSystemName(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else {
            let code = errno
            // A dangling link, a loop of links, a path too long: said as such.
            throw failure(code, reason: UnreachablePath.reason(path, error: code))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw failure(code)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            if type == S_IFDIR { throw Failure(kind: .directory, reason: "is a directory") }
            throw Failure(kind: .notRegular, reason: "not a regular file (\(describe(type)))")
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return (descriptor, Int(status.st_size))
    }

    /// The whole file, refused unread when it is larger than `maxSize` bytes.
    ///
    /// The size `fstat` gives is where reading starts, not where it stops: a file under
    /// `/proc` or `/sys` says 0 bytes and holds text, and a file still being written grows.
    /// Trusted, it made such a file "empty file (0 bytes)"; so reading goes on to the end,
    /// and a file that passes `maxSize` on the way is refused as one larger from the start.
    public static func read(_ path: String, maxSize: Int) throws(Failure) -> [UInt8] {
        try read(path, maxSize: maxSize, first: Int.max)
    }

    /// The file's first `limit` bytes (all of a shorter file), refused unread as
    /// `read(_:maxSize:)` refuses it: enough to tell what a file holds without reading it whole.
    public static func read(_ path: String, maxSize: Int, first limit: Int) throws(Failure) -> [UInt8] {
        try read(path, maxSize: maxSize, first: limit, peek: 0) { _ in true }
    }

    /// The whole file as `read(_:maxSize:)` reads it, from one opening, unless `accept` turns
    /// down its first `peek` bytes: then those bytes alone, the rest unread (a gigabyte of
    /// something else named .jpg is refused from its first bytes, without a second opening
    /// for every photo that is one).
    public static func read(_ path: String, maxSize: Int, peek: Int, accept: ([UInt8]) -> Bool) throws(Failure) -> [UInt8] {
        try read(path, maxSize: maxSize, first: Int.max, peek: peek, accept: accept)
    }

    private static func read(_ path: String, maxSize: Int, first limit: Int, peek: Int,
                             accept: ([UInt8]) -> Bool) throws(Failure) -> [UInt8] {
        let (descriptor, size) = try open(path)
        defer { close(descriptor) }
        guard size <= maxSize else {
            throw Failure(kind: .tooLarge, reason: "file of \(size) bytes is larger than the \(maxSize) bytes accepted")
        }
        let wanted = min(size, limit)
        // Straight into the array's storage: no zero-filling first and no copy after,
        // which for a 3 MB photo is a measurable part of an import.
        var code: Int32 = 0
        var refused = false
        var bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            var done = 0
            var looked = peek == 0
            while done < wanted {
                let end = looked ? wanted : min(peek, wanted)
                let count = Glibc.read(descriptor, buffer.baseAddress! + done, end - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    break
                }
                if count == 0 { break }   // the file shrank while we read it
                done += count
                if !looked, done == end {
                    looked = true
                    if !accept(Array(buffer[..<done])) { refused = true; break }
                }
            }
            initialized = done
        }
        if code != 0 { throw failure(code) }
        if refused { return bytes }
        if bytes.count == size && size < limit { try readOn(descriptor, after: &bytes, maxSize: maxSize, limit: limit) }
        return bytes
    }

    /// Appends what the file holds past the size it gave, up to its end or `limit` bytes
    /// (for a file that told its size truly, one `read` that returns 0). Without waiting:
    /// some files under /proc say 0 bytes and block a read until the kernel has something to
    /// say (`/proc/kmsg`), so what such a file does not hold yet is taken as its end.
    private static func readOn(_ descriptor: Int32, after bytes: inout [UInt8], maxSize: Int, limit: Int) throws(Failure) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        let chunk = 1 << 16
        var code: Int32 = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk) { buffer in
            while bytes.count <= maxSize && bytes.count < limit {
                let count = Glibc.read(descriptor, buffer.baseAddress!, min(chunk, limit - bytes.count))
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return }
                    code = errno
                    return
                }
                if count == 0 { return }
                bytes.append(contentsOf: buffer.prefix(count))
            }
        }
        if code != 0 { throw failure(code) }
        guard bytes.count <= maxSize else {
            throw Failure(kind: .tooLarge, reason: "file holds more than the \(maxSize) bytes accepted")
        }
    }

    /// What `code` says when it is the process or the system that lacks something (open
    /// files, memory), not the file: the limit and how to raise it where there is one; nil for
    /// any other code. A file that failed so is not a bad file, and must not be kept as one.
    public static func shortage(_ code: Int32) -> String? {
        switch code {
        case EMFILE:
            var limit = rlimit()
            let soft = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max ? " (\(limit.rlim_cur))" : ""
            return "this process has as many files open as its limit allows\(soft); raise it (ulimit -n)"
        case ENFILE: return "the system has as many files open as it allows"
        case ENOMEM, ENOBUFS: return "the system is out of memory (\(text(of: code)))"
        default: return nil
        }
    }

    /// The system's text for an error number: "Permission denied".
    public static func text(of code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The failure `code` means; `reason`, where given, says it better than the system's words.
    private static func failure(_ code: Int32, reason: String? = nil) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: Failure(kind: .missing, reason: reason ?? text(of: code))
        case EISDIR: Failure(kind: .directory, reason: "is a directory")
        case ENXIO: Failure(kind: .notRegular, reason: "not a regular file (a socket or a device with nothing behind it)")
        case _ where shortage(code) != nil: Failure(kind: .outOfResources, reason: shortage(code)!)
        default: Failure(kind: .system, reason: reason ?? text(of: code))
        }
    }

    /// What a file of `type` (`st_mode & S_IFMT`) is, in a few words: "a FIFO".
    public static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }
}
