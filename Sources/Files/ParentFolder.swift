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

    /// Why no new file could be made beside `path` (the hidden file an output is first written
    /// under), the system having answered `code`: said of the folder the person named, since
    /// the hidden name means nothing to them. A folder that is there and answers ENOENT makes
    /// no files at all (/proc, /sys): the system's 'No such file or directory' read as if the
    /// output's own path were wrong.
    public static func refusal(beside path: String, code: Int32) -> String {
        let folder = of(path)
        switch code {
        case ENOENT, ENOTDIR: return problem(for: path) ?? "the folder \(folder) does not accept new files"
        // Not the folder's permissions, which root passes: /proc's own refusal, an immutable folder.
        case EPERM: return "the folder \(folder) does not accept new files"
        case EACCES: return "the folder \(folder) is not writable (\(RegularFile.text(of: code)))"
        case EROFS: return "the folder \(folder) is on a read-only file system"
        default: return "cannot make a new file in the folder \(folder) (\(RegularFile.text(of: code)))"
        }
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
