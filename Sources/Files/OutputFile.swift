#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command writes its output to (`export --output PATH`), without ever replacing
/// what should not be replaced. A new path or a regular file is written beside it under a
/// temporary name and renamed over it when complete, so a reader never sees half a file and
/// a failure leaves the old one; a symbolic link is followed and its target treated so
/// (the link stays); a FIFO or character device (`/dev/stdout`, a terminal) is written as
/// a stream; anything else (a folder, a block device, a socket, a FIFO nobody reads) is
/// refused, and so is a new path whose folder is missing (see `ParentFolder`). Every write
/// is checked: a short or failed write is an error.
///
/// Nor does it replace what the command reads (`Input`): `export --output` naming the
/// catalogue, `prep --thumbnail` naming the photo, `model train --out` naming the catalogue
/// or a training photo would each put the output where that file had been.
public final class OutputFile {
    /// A file the command reads (`role`: "the catalogue"), or a folder it reads files from,
    /// which the output must not replace: the same file under any name (a link, a hard
    /// link), or any file inside the folder.
    public struct Input: Sendable {
        public var path: String
        public var role: String

        public init(path: String, role: String) {
            self.path = path
            self.role = role
        }
    }

    /// What `path` turned out to be.
    public enum Kind: Sendable, Equatable {
        /// Written under a temporary name, renamed onto `target` by `finish`.
        case replaced(target: String)
        /// Written in place, as a stream.
        case stream
    }

    public let path: String
    public let kind: Kind
    private var descriptor: Int32
    private var temporary: String?
    /// The temporary file, known to the signal handler that ends the process, which removes it.
    private var partial: PartialFiles.Registration?

    /// Opens `path` for writing as described above, refusing to replace any of `inputs`.
    public init(path: String, sparing inputs: [Input] = []) throws(RegularFile.Failure) {
        self.path = path
        var status = stat()
        var target = path
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            } else {
                guard stat(path, &status) == 0 else {
                    throw RegularFile.Failure(kind: .missing, reason: "is a symbolic link to nothing (\(RegularFile.text(of: errno)))")
                }
                // A link to something with no path of its own: /dev/stdout when the output is
                // a pipe (/proc/self/fd/1 reads "pipe:[...]"). A stream is opened through the
                // link itself; anything else would be replaced by a file where the link was.
                let kind = status.st_mode & S_IFMT
                guard kind == S_IFIFO || kind == S_IFCHR else {
                    throw RegularFile.Failure(kind: .notRegular, reason: "is a symbolic link to something without a path (\(RegularFile.describe(kind)))")
                }
            }
        }
        if stat(target, &status) != 0 {
            guard errno == ENOENT else { throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno)) }
            if let problem = ParentFolder.problem(for: target) { throw RegularFile.Failure(kind: .missing, reason: problem) }
            // An input that is not there now may be made while the command runs: SQLite makes
            // a catalogue's -journal (and -wal) as it writes, and a file written there first was
            // taken for one, or deleted as one.
            if let input = inputs.first(where: { PathName.sameName($0.path, target) }) {
                throw RegularFile.Failure(kind: .input, reason: "is the name of \(input.role), which this command reads; write the output elsewhere")
            }
            (descriptor, temporary, partial) = try Self.temporaryBeside(target)
            kind = .replaced(target: target)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            if let input = Self.input(among: inputs, holding: status, at: target) {
                throw RegularFile.Failure(kind: .input, reason: "is \(input.role), which this command reads; write the output elsewhere")
            }
            (descriptor, temporary, partial) = try Self.temporaryBeside(target)
            // The replacement keeps the permissions of the file it replaces.
            fchmod(descriptor, status.st_mode & 0o7777)
            kind = .replaced(target: target)
        case S_IFIFO, S_IFCHR:
            // Non-blocking so that a FIFO nobody reads is refused rather than waited on.
            let opened = open(target, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard opened >= 0 else {
                if errno == ENXIO { throw RegularFile.Failure(kind: .notRegular, reason: "a FIFO that nobody reads") }
                throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno))
            }
            let flags = fcntl(opened, F_GETFL)
            if flags >= 0 { _ = fcntl(opened, F_SETFL, flags & ~O_NONBLOCK) }
            descriptor = opened
            temporary = nil
            kind = .stream
        case S_IFDIR:
            throw RegularFile.Failure(kind: .directory, reason: "is a directory")
        default:
            throw RegularFile.Failure(kind: .notRegular, reason: "not a regular file (\(RegularFile.describe(status.st_mode & S_IFMT)))")
        }
    }

    deinit {
        // Not finished: the output is incomplete, so the temporary file goes.
        if descriptor >= 0 { close(descriptor) }
        if let temporary { unlink(temporary) }
        if let partial { PartialFiles.unregister(partial) }
    }

    /// Writes all of `bytes`, or throws why not (a full disk, a closed pipe).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(RegularFile.Failure) {
        try Self.writeAll(bytes, to: descriptor)
    }

    public func write(_ bytes: [UInt8]) throws(RegularFile.Failure) {
        let result: Result<Void, RegularFile.Failure> = bytes.withUnsafeBytes { buffer in
            Result { () throws(RegularFile.Failure) in try Self.writeAll(buffer, to: descriptor) }
        }
        try result.get()
    }

    /// Flushes to disk and, for a replaced file, renames the complete output into place.
    public func finish() throws(RegularFile.Failure) {
        if case .replaced(let target) = kind, let temporary {
            guard fsync(descriptor) == 0 else { throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno)) }
            guard close(descriptor) == 0 else {
                descriptor = -1
                throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno))
            }
            descriptor = -1
            guard rename(temporary, target) == 0 else { throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno)) }
            self.temporary = nil
            if let partial { PartialFiles.unregister(partial) }
            partial = nil
        } else {
            let code = close(descriptor)
            descriptor = -1
            if code != 0 { throw RegularFile.Failure(kind: .system, reason: RegularFile.text(of: errno)) }
        }
    }

    /// Writes every byte to `descriptor`, going on after short writes and EINTR.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(RegularFile.Failure) {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw RegularFile.Failure(kind: errno == EPIPE ? .closedPipe : .system, reason: RegularFile.text(of: errno))
            }
            if count == 0 { throw RegularFile.Failure(kind: .system, reason: "nothing could be written") }
            done += count
        }
    }

    /// The input that is the file `status` describes (found at `target`, links resolved), or
    /// the folder holding it.
    private static func input(among inputs: [Input], holding status: stat, at target: String) -> Input? {
        let real = realpath(target, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return inputs.first { input in
            var other = stat()
            guard stat(input.path, &other) == 0 else { return false }
            if other.st_mode & S_IFMT == S_IFDIR {
                guard let real, let folder = realpath(input.path, nil) else { return false }
                defer { free(folder) }
                return PathName.isBelow(real, folder: String(cString: folder))
            }
            return other.st_dev == status.st_dev && other.st_ino == status.st_ino
        }
    }

    /// Creates a new file beside `target` under a hidden temporary name, registered as a
    /// partial file before it exists, so no moment is left in which a signal could end the
    /// process with the file there and unknown to the handler.
    private static func temporaryBeside(_ target: String) throws(RegularFile.Failure)
        -> (Int32, String?, PartialFiles.Registration) {
        UnfinishedFile.removeStale(beside: target)
        while true {
            let temporary = UnfinishedFile.name(beside: target)
            let partial = PartialFiles.register(temporary)
            let opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard opened >= 0 else {
                let code = errno
                PartialFiles.unregister(partial)
                if code == EEXIST { continue }
                throw RegularFile.Failure(kind: .system, reason: ParentFolder.refusal(beside: target, code: code))
            }
            // What a new file made by `open(..., 0666)` would get under the umask.
            let mask = umask(0o022)
            umask(mask)
            fchmod(opened, 0o666 & ~mask)
            return (opened, temporary, partial)
        }
    }
}
