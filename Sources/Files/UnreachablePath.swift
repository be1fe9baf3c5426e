#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a path cannot be reached, where the system's own words mislead: a symbolic
/// link whose target is gone is "No such file or directory" although its name is
/// right there, a loop of links is "Too many levels of symbolic links", and a path
/// past the system's limit is "File name too long". Import's walk and every file a
/// command reads (`RegularFile`) say it the same way.
public enum UnreachablePath {
    /// A reason for `error` (the `errno` of a failed `stat` or `open` of `path`) that
    /// a person can act on, or nil when the system's words serve.
    public static func reason(_ path: String, error: Int32) -> String? {
        switch error {
        case ELOOP:
            return "a symbolic link that leads back to itself (a loop of links)"
        case ENOENT, ENOTDIR:
            return danglingTarget(path).map { "a symbolic link to '\($0)', which is not there" }
        case ENAMETOOLONG:
            return "the path is longer than the system allows (\(PATH_MAX) bytes, \(NAME_MAX) for one name)"
        default:
            return nil
        }
    }

    /// The target `path` names when it is itself a symbolic link, else nil.
    private static func danglingTarget(_ path: String) -> String? {
        var info = stat()
        guard PathName.withSystemName(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = PathName.withSystemName(path) { name in
            buffer.withUnsafeMutableBufferPointer {
                readlink(name, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count)
            }
        }
        return count < 0 ? "" : PathName.display(PathName.decode(buffer.prefix(count)))
    }
}
