#if canImport(Glibc)
import Glibc
#endif

/// Which file a catalogue's path named when the catalogue was opened (its device and inode),
/// to tell before each change whether the path still names it. SQLite goes on writing to an
/// open file that was deleted or had another moved over it, and all it writes there is lost
/// when the process ends: a correction posted to `wardrobe serve` after `rm catalogue.sqlite`
/// was reported saved and was gone. One `stat` a change.
struct CatalogueFileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now; nil when there is none (or it cannot be looked at).
    init?(of path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
