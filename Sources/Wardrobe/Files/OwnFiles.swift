import Files
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files wardrobe itself keeps in a folder it may walk (`PhotoFinder`) or watch
/// (`FolderWatcher`): the catalogue the command writes, the `-wal`, `-shm` and `-journal`
/// SQLite keeps beside it, and the files wardrobe writes under a temporary name
/// (`UnfinishedFile`). None is a photo or a failure: the walk and the watch both pass them
/// over without a word, by this one rule. (The watch had its own rule, by extension only: a
/// catalogue named `Photos/catalogue` was handed its own `-wal` to import, which was refused
/// and recorded as a failure, which wrote the `-wal` again, which the watch saw: once a
/// second, for ever.)
///
/// A name alone is not enough. The catalogue may have any name (`catalogue.jpg`), its folder
/// may be reached through a symbolic link, and when the catalogue's own name is a link,
/// SQLite keeps its side files beside the file the link leads to. So a file is one of them
/// when it has one of their names in the folder, known by device and inode, that holds the
/// catalogue as named or as its links resolve: that also tells a side file not made yet, or
/// already gone, which a watch hears of. And it is one of them under any other name (a hard
/// link, a link to the catalogue) by its own device and inode.
public struct OwnFiles: Sendable {
    /// A name in a folder.
    private struct Place: Hashable {
        var folder: PhotoFinder.FileIdentity
        var name: PathName.Key
    }

    /// The catalogue's files by path, as named and as resolved.
    private let paths: [String]
    private let places: Set<Place>
    /// What `paths` name now (see `lookAgain`).
    private var identities: Set<PhotoFinder.FileIdentity> = []

    /// The files of the catalogue at `location`: none for a catalogue on a server, whose files
    /// no walk meets. The catalogue is open by now, so its links resolve.
    public init(catalogue location: String) {
        var named = [location]
        if let resolved = PathName.real(location), !PathName.same(resolved, location) { named.append(resolved) }
        self.init(paths: named.flatMap { CatalogueLocation.files(of: $0).map(\.path) })
    }

    /// No catalogue's files; wardrobe's temporary files are still its own.
    public static let none = OwnFiles(paths: [])

    private init(paths: [String]) {
        self.paths = paths
        places = Set(paths.compactMap { path in
            PhotoFinder.FileIdentity(path: ParentFolder.of(path)).map {
                Place(folder: $0, name: PathName.Key(Self.name(of: path)))
            }
        })
        lookAgain()
    }

    /// Reads again what the catalogue's files are: a side file made since (a new `-wal` after
    /// the last connection closed) is a new file, known by its place until this is called.
    public mutating func lookAgain() {
        identities = Set(paths.compactMap { PhotoFinder.FileIdentity(path: $0) })
    }

    /// Whether the entry `name` of the folder `folder` is one of them. `file` is what the
    /// entry is, after links, when it is there.
    func contains(name: String, in folder: PhotoFinder.FileIdentity?, file: PhotoFinder.FileIdentity?) -> Bool {
        if UnfinishedFile.isUnfinished(name) { return true }
        if let file, identities.contains(file) { return true }
        guard let folder else { return false }
        return places.contains(Place(folder: folder, name: PathName.Key(name)))
    }

    /// The last part of `path`.
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
