#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a new file goes in. Commands that write a file the user names
/// (`export --output`, `backup`) refuse one whose folder is missing rather than make it:
/// a mistyped folder name should be an error, not a new folder the user never sees.
public enum ParentFolder {
    /// The folder part of `path` as given ("backups/2026" of "backups/2026/c.sqlite"; "." for a bare name).
    public static func of(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Why a new file at `path` cannot be made, naming its folder; nil when the folder exists.
    public static func problem(for path: String) -> String? {
        let folder = of(path)
        var status = stat()
        guard PathName.withSystemName(folder, { stat($0, &status) }) == 0 else {
            if errno == ENOENT { return "the folder \(folder) does not exist" }
            return "cannot reach the folder \(folder) (\(RegularFile.text(of: errno)))"
        }
        return status.st_mode & S_IFMT == S_IFDIR ? nil : "\(folder) is not a folder"
    }

    /// Why `folder` cannot be made with the folders above it: the nearest of them that is
    /// there and is no folder (a file where a folder should be); nil when none is.
    public static func blocker(of folder: String) -> String? {
        var current = folder
        while current != "/" && current != "." {
            var status = stat()
            if PathName.withSystemName(current, { stat($0, &status) }) == 0 {
                return status.st_mode & S_IFMT == S_IFDIR ? nil : "\(current) is not a folder"
            }
            current = of(current)
        }
        return nil
    }
}
