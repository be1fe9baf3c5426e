#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PathName {
    /// The names in a folder, read as bytes: a name that is not UTF-8 stays the
    /// name of its file (see `PathName`). Without "." and "..", in the order the
    /// system lists them; nil when the folder cannot be read.
    public static func names(inFolder folder: String) -> [String]? {
        guard let directory = withSystemName(folder, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in decode(raw.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
