import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a path that import was given, or met in a folder, cannot be looked at, in
/// words a person can act on. The system's own words mislead for links: a symbolic
/// link whose target is gone is "No such file or directory" although its name is
/// right there, and a loop of links was reported as "no such file or folder".
enum UnreachablePath {
    static let missing = "no such file or folder"

    /// The reason for `error`, the `errno` of a failed `stat` of `path`.
    static func reason(_ path: String, error: Int32) -> String {
        switch error {
        case ELOOP:
            return "a symbolic link that leads back to itself (a loop of links)"
        case ENOENT, ENOTDIR:
            guard let target = danglingTarget(path) else { return missing }
            return "a symbolic link to '\(target)', which is not there"
        case ENAMETOOLONG:
            return "the path is longer than the system allows (\(PATH_MAX) bytes, \(NAME_MAX) for one name)"
        default:
            return String(cString: strerror(error))
        }
    }

    /// The target `path` names when it is itself a symbolic link, else nil.
    private static func danglingTarget(_ path: String) -> String? {
        var info = stat()
        guard PathName.withSystemName(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = PathName.withSystemName(path) { name in
            buffer.withUnsafeMutableBufferPointer { readlink(name, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count) }
        }
        return count < 0 ? "" : PathName.display(PathName.decode(buffer.prefix(count)))
    }
}
