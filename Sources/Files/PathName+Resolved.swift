#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PathName {
    /// `path` with its folder's symbolic links resolved and its last name kept, or nil when
    /// the folder cannot be resolved. Two names of one file that does not exist yet are the
    /// same name when these are the same bytes: `./cat.sqlite-journal` and
    /// `/home/me/photos/../cat.sqlite-journal` are the one name SQLite would give a journal.
    public static func resolvedName(_ path: String) -> String? {
        let absolute = absolute(path)
        let slash = absolute.utf8.lastIndex(of: UInt8(ascii: "/"))!
        let folder = slash == absolute.utf8.startIndex ? "/" : String(absolute[..<slash])
        let name = String(absolute[absolute.index(after: slash)...])
        guard let real = realpath(folder, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        return (resolved.hasSuffix("/") ? resolved : resolved + "/") + name
    }

    /// `path` with every symbolic link resolved (as SQLite resolves the name of a database it
    /// opens, and keeps its side files beside that), or nil when nothing is there.
    public static func real(_ path: String) -> String? {
        guard let real = withSystemName(path, { realpath($0, nil) }) else { return nil }
        defer { free(real) }
        return decode(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self),
                                          count: strlen(real)))
    }

    /// Whether two paths name the same place, existing or not, by `resolvedName`.
    public static func sameName(_ first: String, _ second: String) -> Bool {
        guard let a = resolvedName(first), let b = resolvedName(second) else { return false }
        return same(a, b)
    }
}
