import Files
import Foundation

/// A file found under the paths given to `import`, with what `stat` says of
/// it: enough to skip an unchanged file without reading it.
public struct FoundFile: Sendable, Equatable {
    public var path: String
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
}

/// Walks files and folders, recursively, in a stable order. Every regular
/// file is a candidate (images are recognised by content later), except
/// hidden files and folders unless asked for, and files whose name says they
/// are no photo (`notPhotoExtensions`).
///
/// `Files/` owns the files behind the catalogue: finding them (this finder), watching
/// folders (`FolderWatcher`), looking at known paths (`PathLook`), an image's own file
/// (`OriginalFile`), the formats read, and hashing (`SHA256`).
public struct PhotoFinder: Sendable {
    public var includeHidden = false

    /// Extensions of the files that sit beside photos in cameras', phones' and
    /// photo programs' folders and are never a photo: sidecars and metadata
    /// (XMP, Apple's AAE edits, a Takeout export's JSON per photo), videos and
    /// sound, documents and archives, and SQLite files (a catalogue's backup
    /// kept with the photos, another catalogue's write-ahead log). Inside a
    /// folder they are passed over by name and counted, unread; before, each
    /// was read and reported as "not an image", so such a folder buried its
    /// real failures and always exited 2.
    /// A file named on the command line is read whatever its name.
    public static let notPhotoExtensions: Set<String> = [
        "xmp", "aae", "json", "xml", "thm", "pp3", "dop", "on1", "txt", "md", "ini", "log", "db", "csv",
        "mov", "mp4", "m4v", "avi", "mkv", "webm", "3gp", "mts", "m2ts", "lrv", "mp3", "m4a", "wav", "aac",
        "pdf", "html", "htm", "zip", "gz", "tar", "7z", "rar",
        "sqlite", "sqlite3", "sqlite-wal", "sqlite-shm", "db-wal", "db-shm", "db-journal", "sqlite-journal",
    ]

    /// The lowercased extension of the file `name` (or path) when it is one of `notPhotoExtensions`.
    public static func notPhotoExtension(of name: String) -> String? {
        let name = name.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return notPhotoExtensions.contains(ext) ? ext : nil
    }

    public init(includeHidden: Bool = false) {
        self.includeHidden = includeHidden
    }

    /// What one walk found.
    public struct Found: Sendable {
        public var files: [FoundFile] = []
        /// Paths that could not be walked, with the reason.
        public var problems: [(path: String, reason: String)] = []
        /// Of `problems`, the symbolic links that lead nowhere (to nothing, or round in a loop),
        /// as the link itself is (`lstat`): the one thing to tell such a link unchanged by.
        public var brokenLinks: [PathName.Key: FoundFile] = [:]
        /// Hidden files and folders passed over (each counted once, not what they hold).
        public var hidden = 0
        /// Files inside the folders passed over by name (`notPhotoExtensions`).
        public var notPhotos: [String] = []
        /// Pipes, sockets and devices inside the folders: never a photo, and a pipe would block
        /// the reader, so they are passed over unopened and counted.
        public var special = 0
        /// Wardrobe's own files inside the folders (`OwnFiles`), passed over without a word.
        public var own: [String] = []
    }

    /// Every file under `roots`, and what was passed over. Wardrobe's own files (`own`: the
    /// catalogue, under any name, also through a symbolic link) are never among the files.
    public func find(_ roots: [String], own: OwnFiles = .none) -> Found {
        var walk = Walk(includeHidden: includeHidden, own: own)
        for root in roots {
            let path = PathName.absolute(root)
            walk.visit(path, isRoot: true, in: FileIdentity(path: ParentFolder.of(path)))
        }
        return walk.found
    }

    /// Each of `roots` (folders) walked as `find` walks, in one walk that never enters, through
    /// a symbolic link, another of the roots or one of `fenced`: the files of each root apart,
    /// each file under one root only. A root that is the same folder as an earlier one (a link
    /// to it) is a problem and gets no files, so its files are not counted twice.
    public func findEach(_ roots: [String], fencing fenced: [String] = [])
        -> (files: [[FoundFile]], problems: [(path: String, reason: String)]) {
        var walk = Walk(includeHidden: includeHidden, own: .none)
        let identities = roots.map { FileIdentity(path: $0) }
        walk.fenced = Set(identities.compactMap { $0 } + fenced.compactMap { FileIdentity(path: $0) })
        var files: [[FoundFile]] = []
        for (index, root) in roots.enumerated() {
            if let identity = identities[index], let first = identities[..<index].firstIndex(of: identity) {
                walk.found.problems.append((root, "is the same folder as \(roots[first]), whose photos count once, there"))
                files.append([])
                continue
            }
            let before = walk.found.files.count
            let path = PathName.absolute(root)
            walk.visit(path, isRoot: true, in: FileIdentity(path: ParentFolder.of(path)))
            files.append(Array(walk.found.files[before...]))
        }
        return (files, walk.found.problems)
    }

    /// The paths among `roots` that name nothing (a typo), before anything is
    /// opened or written; with each, why (`UnreachablePath`: a symbolic link whose
    /// target is gone is named as one) and the names beside it in its folder (for
    /// "did you mean").
    public static func missingRoots(_ roots: [String]) -> [(path: String, reason: String, siblings: [String])] {
        roots.compactMap { root in
            var info = stat()
            guard PathName.withSystemName(root, { stat($0, &info) }) != 0, errno == ENOENT || errno == ENOTDIR else {
                return nil
            }
            let code = errno
            let parent = URL(fileURLWithPath: root).deletingLastPathComponent().path
            return (root, PhotoFinder.reason(root, error: code), PathName.names(inFolder: parent) ?? [])
        }
    }

    /// What a path that `missingRoots` returned lacks, as import's usage error says it.
    public static let noSuchFile = "no such file or folder"

    /// Why the walk cannot look at `path` (`error`: the `errno` of its `stat`).
    static func reason(_ path: String, error: Int32) -> String {
        UnreachablePath.reason(path, error: error)
            ?? (error == ENOENT || error == ENOTDIR ? noSuchFile : String(cString: strerror(error)))
    }

    /// Device and inode: one file or folder under any of its names.
    public struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64

        /// The identity of what `path` names (after links), or nil when nothing is there.
        public init?(path: String) {
            var info = stat()
            guard PathName.withSystemName(path, { stat($0, &info) }) == 0 else { return nil }
            self.init(info)
        }

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// One walk's state: what was found, and what was met already.
    private struct Walk {
        let includeHidden: Bool
        let own: OwnFiles
        var found = Found()
        var seen = Set<PathName.Key>()
        var folders = Set<FileIdentity>()
        /// Folders entered only as roots, never through a link from another (`findEach`).
        var fenced = Set<FileIdentity>()

        init(includeHidden: Bool, own: OwnFiles) {
            self.includeHidden = includeHidden
            self.own = own
        }

        /// `folder`: the folder `path` is in (nil when it cannot be looked at).
        mutating func visit(_ path: String, isRoot: Bool, in folder: FileIdentity?) {
            var info = stat()
            guard PathName.withSystemName(path, { stat($0, &info) }) == 0 else {
                let error = errno
                found.problems.append((path, PhotoFinder.reason(path, error: error)))
                // A link that leads nowhere is there all the same, and known by its own size and time.
                var link = stat()
                if PathName.withSystemName(path, { lstat($0, &link) }) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                    found.brokenLinks[PathName.Key(path)] = FoundFile(path: path, size: Int64(link.st_size),
                                                                      modified: FileTime.nanoseconds(link.st_mtim))
                }
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                if own.contains(name: OwnFiles.name(of: path), in: folder, file: FileIdentity(info)) {
                    // Named on the command line it was passed over without a word ("0 of 0 files").
                    if isRoot {
                        found.problems.append((path, "is the catalogue this command writes (or a file SQLite keeps beside it); not imported"))
                    } else {
                        found.own.append(path)
                    }
                    return
                }
                guard seen.insert(PathName.Key(path)).inserted else { return }
                if !isRoot, PhotoFinder.notPhotoExtension(of: path) != nil {
                    found.notPhotos.append(path)
                    return
                }
                let modified = FileTime.nanoseconds(info.st_mtim)
                found.files.append(FoundFile(path: path, size: Int64(info.st_size), modified: modified))
            case S_IFDIR:
                // A folder reached twice through symbolic links is walked once.
                let identity = FileIdentity(info)
                guard isRoot || !fenced.contains(identity), folders.insert(identity).inserted else { return }
                guard let entries = PathName.names(inFolder: path) else {
                    found.problems.append((path, "cannot read folder: permission denied or unreadable"))
                    return
                }
                for name in entries.sorted() {
                    guard includeHidden || !name.hasPrefix(".") else {
                        found.hidden += 1
                        continue
                    }
                    visit(path == "/" ? "/\(name)" : "\(path)/\(name)", isRoot: false, in: identity)
                }
            default:
                if isRoot { found.problems.append((path, "not a regular file or folder")) } else { found.special += 1 }
            }
        }
    }
}
