internal import Catalogue
import Files
import Glibc

extension SeenFile {
    /// The regular file at `path` as `stat` sees it now (its size and modification time); nil
    /// when nothing is there, or something other than a regular file. What a file read a moment
    /// ago, or recorded at an import, is compared with to tell whether it is still the same file.
    static func now(at path: String) -> SeenFile? {
        var status = stat()
        guard PathName.withSystemName(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return SeenFile(path: path, size: Int64(status.st_size), modificationTimeNanoseconds: FileTime.nanoseconds(status.st_mtim))
    }
}
