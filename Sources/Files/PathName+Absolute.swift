#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PathName {
    /// `name` from the root, `.` and `..` taken out as written (links are not followed), as
    /// the system reads it: a `~` is a name like any other. Foundation's
    /// `URL(fileURLWithPath:)` reads a leading `~` as the home folder, so `import '~/photos'`
    /// (a folder named `~` in the working folder) recorded its files under the home folder,
    /// and `model use '~/m.aimodel'` read another file than the one named.
    public static func absolute(_ name: String) -> String {
        var full = name
        if !name.hasPrefix("/"), let folder = getcwd(nil, 0) {
            let length = strlen(folder)
            full = decode(UnsafeBufferPointer(start: UnsafeRawPointer(folder).assumingMemoryBound(to: UInt8.self), count: length))
                + "/" + name
            free(folder)
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
