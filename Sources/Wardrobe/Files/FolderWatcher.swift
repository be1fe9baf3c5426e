import Files
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches folders, and every folder under them, with Linux inotify, and hands out the files
/// that have settled: no event for `settle` seconds and the same size and modification time
/// at two looks, so a photo still being copied in is taken once, when it is whole.
///
/// A file moved in is a new path (its content may be known: the import records it as another
/// path of that image); a file moved out or deleted is a gone path. Folders made or moved in
/// are watched from then on and their files taken. Hidden names are passed over unless asked for.
///
/// When the kernel's event queue overflows (more changes than it holds between two looks:
/// `fs.inotify.max_queued_events`), events are lost, so the watcher cannot know what changed:
/// the next look reads every watched tree again, every file in it pending (an import passes
/// over a known file that has not changed) and the roots reported as `rescanned`, so the
/// caller can find what went meanwhile.
///
/// A watched folder itself deleted or moved away is reported as `lost` and watched no more,
/// rather than its watch dropped without a word (or, moved, following it under its old
/// name): a watch must never go on saying nothing while it watches nothing.
///
/// Names are bytes (`PathName`): every name read from inotify or a folder listing is decoded
/// losslessly and every path handed back to the system encoded to the same bytes, so a file
/// whose name is not UTF-8 is taken like any other.
///
/// Wardrobe's own files (`OwnFiles`: the catalogue and the files SQLite keeps beside it, under
/// any name) are passed over without a word, by the rule the import's walk passes them over
/// by. (A catalogue named without an SQLite extension had every write to its `-wal` taken for
/// a new photo.)
public final class FolderWatcher {
    /// What one look found.
    public struct Changes: Sendable, Equatable {
        /// Files that settled since the last look, in path order.
        public var ready: [String] = []
        /// Paths deleted or moved away (a folder's path stands for everything under it).
        public var gone: [String] = []
        /// The watched roots, read again whole because events were lost (queue overflow):
        /// a known path under them that is not there now went unseen.
        public var rescanned: [String] = []
        /// Watched folders (of those given) deleted or moved away: watched no more.
        public var lost: [String] = []
        public var isEmpty: Bool { ready.isEmpty && gone.isEmpty && rescanned.isEmpty && lost.isEmpty }
    }

    private struct Pending {
        var lastEvent: Double
        var size: Int64 = -1
        var modified: Int64 = -1
        /// The folder the file is in, to tell wardrobe's own files by (`OwnFiles`).
        var folder: PhotoFinder.FileIdentity?
    }

    /// A watched folder: its path, and which folder that is.
    private struct Folder {
        var path: String
        var identity: PhotoFinder.FileIdentity
    }

    private let descriptor: Int32
    private let includeHidden: Bool
    private let settle: Double
    private var own: OwnFiles
    private var roots: [String] = []
    private var overflowed = false
    private var folders: [Int32: Folder] = [:]
    // Keyed by bytes: two names that are one string to Swift are two files (`PathName.Key`).
    private var pending: [PathName.Key: Pending] = [:]
    private var gone: Set<PathName.Key> = []
    private var lost: [String] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts watching; the files already there are not reported (the import before the
    /// watch has taken them). `own`: the files to pass over, as the import's walk does.
    public init(paths: [String], includeHidden: Bool = false, settle: Double = 0.4, own: OwnFiles = .none) throws(WardrobeError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .system("inotify: \(String(cString: strerror(errno)))") }
        self.includeHidden = includeHidden
        self.settle = settle
        self.own = own
        for path in paths {
            var status = stat()
            guard PathName.withSystemName(path, { stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw .system("\(PathName.display(path)): not a folder; --watch watches folders")
            }
            let root = PathName.absolute(path)
            roots.append(root)
            try watchTree(root, takeFiles: false)
        }
    }

    deinit { close(descriptor) }

    /// Folders watched now.
    public var watchedFolders: Int { folders.count }

    /// The folders given that are still watched (not deleted or moved away).
    public var watchedRoots: Int { roots.count }

    /// Waits up to `timeout` seconds for events, then reports what has settled and what went.
    public func look(timeout: Double) -> Changes {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, Int32(timeout * 1000)) > 0 { readEvents() }
        var changes = Changes()
        if overflowed {
            overflowed = false
            rescan()
            changes.rescanned = roots
        }
        let now = Self.now()
        if !pending.isEmpty { own.lookAgain() }
        for (key, state) in pending where now - state.lastEvent >= settle {
            let path = key.path
            var status = stat()
            guard PathName.withSystemName(path, { stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                pending[key] = nil   // gone again before it settled
                continue
            }
            if own.contains(name: OwnFiles.name(of: path), in: state.folder, file: PhotoFinder.FileIdentity(status)) {
                pending[key] = nil
                continue
            }
            let modified = FileTime.nanoseconds(status.st_mtim)
            if Int64(status.st_size) == state.size && modified == state.modified {
                changes.ready.append(path)
                pending[key] = nil
            } else {
                pending[key] = Pending(lastEvent: now, size: Int64(status.st_size), modified: modified, folder: state.folder)
            }
        }
        changes.ready.sort()
        changes.gone = gone.map(\.path).sorted()
        gone.removeAll()
        changes.lost = lost
        lost.removeAll()
        return changes
    }

    private func readEvents() {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset + 16 <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.load(fromByteOffset: offset, as: Int32.self), raw.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                handle(folder: wd, mask: mask, name: PathName.decode(nameBytes))
            }
        }
    }

    private func handle(folder wd: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true; return }
        // A folder under a root that goes is told by its parent's event; a root has none watched.
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            if let folder = folders[wd], roots.contains(where: { PathName.same($0, folder.path) }) { lose(root: folder.path) }
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 { folders[wd] = nil; return }
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        // Wardrobe's own files are told by name here, before they are made and after they are
        // gone: the catalogue's writes are no change to report.
        guard let folder = folders[wd], !name.isEmpty, includeHidden || !name.hasPrefix("."),
              isFolder || PhotoFinder.notPhotoExtension(of: name) == nil,
              !own.contains(name: name, in: folder.identity, file: nil) else { return }
        let path = folder.path + "/" + name
        let key = PathName.Key(path)
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            pending[key] = nil
            gone.insert(key)
            if isFolder { for (key, value) in folders where value.path == path { inotify_rm_watch(descriptor, key); folders[key] = nil } }
        } else if isFolder, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            gone.remove(key)
            try? watchTree(path, takeFiles: true)
        } else if !isFolder, mask & UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_ATTRIB) != 0 {
            gone.remove(key)
            pending[key, default: Pending(lastEvent: 0, folder: folder.identity)].lastEvent = Self.now()
        }
    }

    /// A root deleted or moved away: everything under it is gone (moved, its files live on
    /// under a name this watch does not know), and it is watched no more.
    private func lose(root: String) {
        roots.removeAll { PathName.same($0, root) }
        for (wd, folder) in folders where PathName.same(folder.path, root) || PathName.isBelow(folder.path, folder: root) {
            inotify_rm_watch(descriptor, wd)
            folders[wd] = nil
        }
        pending = pending.filter { !PathName.isBelow($0.key.path, folder: root) }
        gone.insert(PathName.Key(root))
        lost.append(root)
    }

    /// After lost events: forgets watched folders that are gone (their IN_IGNORED may have
    /// been lost too), then walks every root again, watching new folders and taking every file.
    private func rescan() {
        for (wd, folder) in folders {
            var status = stat()
            if PathName.withSystemName(folder.path, { stat($0, &status) }) != 0 || (status.st_mode & S_IFMT) != S_IFDIR {
                inotify_rm_watch(descriptor, wd)
                folders[wd] = nil
            }
        }
        // A root that cannot be watched again (gone, or out of watches) is reported by its
        // paths going missing; the others are still watched.
        for root in roots { try? watchTree(root, takeFiles: true) }
    }

    /// Watches `root` and the folders under it; with `takeFiles`, the files already in them
    /// are pending too (they may have arrived before the watch did).
    private func watchTree(_ root: String, takeFiles: Bool) throws(WardrobeError) {
        let events = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB
                            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)
        var stack = [root]
        while let folder = stack.popLast() {
            let wd = PathName.withSystemName(folder) { inotify_add_watch(descriptor, $0, events) }
            guard wd >= 0 else {
                throw .system("\(PathName.display(folder)): cannot watch: \(String(cString: strerror(errno)))"
                                   + (errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""))
            }
            var status = stat()
            guard PathName.withSystemName(folder, { stat($0, &status) }) == 0 else { continue }
            let identity = PhotoFinder.FileIdentity(status)
            folders[wd] = Folder(path: folder, identity: identity)
            let entries = PathName.names(inFolder: folder) ?? []
            for name in entries where includeHidden || !name.hasPrefix(".") {
                let path = folder + "/" + name
                var status = stat()
                guard PathName.withSystemName(path, { lstat($0, &status) }) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    stack.append(path)
                } else if takeFiles, (status.st_mode & S_IFMT) == S_IFREG, PhotoFinder.notPhotoExtension(of: name) == nil,
                          !own.contains(name: name, in: identity, file: PhotoFinder.FileIdentity(status)) {
                    pending[PathName.Key(path)] = Pending(lastEvent: Self.now(), folder: identity)
                }
            }
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
