import Files
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches folders, and every folder under them, with Linux inotify, and hands out the files
/// that have settled: no event for `settle` seconds and the same size and modification time
/// at two looks, so a photo still being copied in is taken once, when it is whole. A file
/// written to and not closed since (no IN_CLOSE_WRITE after its last IN_MODIFY) is still
/// open in its writer: it settles only after `settleWhileOpen` seconds without an event. A
/// slow writer (a phone syncing over Wi-Fi, a copy from a network share) pauses longer than
/// `settle` between writes; each pause was taken for the end, and the part written so far
/// read and refused ("truncated JPEG") once a pause, a line each time, until the file was whole.
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
/// It sees what the walk of an import sees (`PhotoFinder`), so that watching a folder and
/// importing it again take the same files: a symbolic link to a folder is a folder, there when
/// the watch starts or made during it, watched under the name the walk gives its files and,
/// whatever loops links make, once; and wardrobe's own files (`OwnFiles`: the catalogue and the
/// files SQLite keeps beside it, under any name) are passed over without a word. (A link to a
/// folder was looked at as a link and never watched; a catalogue named without an SQLite
/// extension had every write to its `-wal` taken for a new photo.)
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
        /// Written to, and not closed by its writer since.
        var open = false
        /// The folder the file is in, to tell wardrobe's own files by (`OwnFiles`).
        var folder: PhotoFinder.FileIdentity?
    }

    /// A watched folder: the path its files are given (through the links the walk follows),
    /// and which folder that is.
    private struct Folder {
        var path: String
        var identity: PhotoFinder.FileIdentity
    }

    private let descriptor: Int32
    private let includeHidden: Bool
    private let settle: Double
    private let settleWhileOpen: Double
    private var own: OwnFiles
    private var roots: [String] = []
    private var overflowed = false
    private var folders: [Int32: Folder] = [:]
    /// The watch of each folder in `folders`, by its path.
    private var watches: [PathName.Key: Int32] = [:]
    // Keyed by bytes: two names that are one string to Swift are two files (`PathName.Key`).
    private var pending: [PathName.Key: Pending] = [:]
    private var gone: Set<PathName.Key> = []
    private var lost: [String] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Whether files have changed that have not settled yet: a watch that stops now leaves
    /// them unimported.
    public var hasUnsettledFiles: Bool { !pending.isEmpty }

    /// Starts watching; the files already there are not reported (the import before the
    /// watch has taken them). `own`: the files to pass over, as the import's walk does.
    /// `settleWhileOpen`: how long a file its writer has not closed must go without an event
    /// (a writer that keeps its file open is read in the end, whole or not).
    public init(paths: [String], includeHidden: Bool = false, settle: Double = 0.4, settleWhileOpen: Double = 5,
                own: OwnFiles = .none) throws(WardrobeError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .system("inotify: \(String(cString: strerror(errno)))") }
        self.includeHidden = includeHidden
        self.settle = settle
        self.settleWhileOpen = max(settle, settleWhileOpen)
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
        for (key, state) in pending where now - state.lastEvent >= (state.open ? settleWhileOpen : settle) {
            let path = key.path
            var status = stat()
            guard PathName.withSystemName(path, { stat($0, &status) }) == 0 else {
                pending[key] = nil   // gone again before it settled
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                // A symbolic link made before the folder it names: a folder now, watched from now on.
                pending[key] = nil
                if watches[key] == nil { try? watchTree(path, takeFiles: true) }
                continue
            default:
                pending[key] = nil
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
                pending[key] = Pending(lastEvent: now, size: Int64(status.st_size), modified: modified, open: state.open,
                                       folder: state.folder)
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
        if mask & UInt32(IN_IGNORED) != 0 { forget(wd); return }
        // Wardrobe's own files are told by name here, before they are made and after they are
        // gone: the catalogue's writes are no change to report.
        guard let folder = folders[wd], !name.isEmpty, includeHidden || !name.hasPrefix("."),
              !own.contains(name: name, in: folder.identity, file: nil) else { return }
        let path = folder.path + "/" + name
        let key = PathName.Key(path)
        let isNotPhoto = PhotoFinder.notPhotoExtension(of: name) != nil
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            // A folder, or a link to one: what was watched under its name is not there now.
            let wasWatched = unwatch(path)
            guard mask & UInt32(IN_ISDIR) != 0 || wasWatched || !isNotPhoto else { return }
            pending[key] = nil
            gone.insert(key)
            return
        }
        let arrived = mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
        // A symbolic link to a folder is a folder, as in the walk; inotify says it is a file.
        if mask & UInt32(IN_ISDIR) != 0 || (arrived && Self.folder(path) != nil) {
            guard arrived else { return }
            gone.remove(key)
            unwatch(path)   // the name may have led elsewhere before (a link made again)
            try? watchTree(path, takeFiles: true)
        } else if !isNotPhoto, mask & UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_ATTRIB) != 0 {
            gone.remove(key)
            pending[key, default: Pending(lastEvent: 0, folder: folder.identity)].lastEvent = Self.now()
            // Events come in order: a write opens the file's wait, its writer's close (or the
            // file moved in whole) ends it.
            if mask & UInt32(IN_MODIFY) != 0 { pending[key]?.open = true }
            if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 { pending[key]?.open = false }
        }
    }

    /// A root deleted or moved away: everything under it is gone (moved, its files live on
    /// under a name this watch does not know), and it is watched no more.
    private func lose(root: String) {
        roots.removeAll { PathName.same($0, root) }
        unwatch(root)
        pending = pending.filter { !PathName.isBelow($0.key.path, folder: root) }
        gone.insert(PathName.Key(root))
        lost.append(root)
    }

    /// Stops watching the folder watched at `path` and those under it; false when none was.
    @discardableResult
    private func unwatch(_ path: String) -> Bool {
        guard watches[PathName.Key(path)] != nil else { return false }
        for (wd, folder) in folders where PathName.same(folder.path, path) || PathName.isBelow(folder.path, folder: path) {
            inotify_rm_watch(descriptor, wd)
            forget(wd)
        }
        return true
    }

    /// The watch `wd` is gone (removed, or its folder deleted).
    private func forget(_ wd: Int32) {
        guard let folder = folders.removeValue(forKey: wd) else { return }
        let key = PathName.Key(folder.path)
        if watches[key] == wd { watches[key] = nil }
    }

    /// After lost events: forgets watched folders that are gone or are another folder now
    /// (their IN_IGNORED may have been lost too), then walks every root again, watching new
    /// folders and taking every file.
    private func rescan() {
        for (wd, folder) in folders where Self.folder(folder.path) != folder.identity {
            inotify_rm_watch(descriptor, wd)
            forget(wd)
        }
        // A root that cannot be watched again (gone, or out of watches) is reported by its
        // paths going missing; the others are still watched.
        for root in roots { try? watchTree(root, takeFiles: true) }
    }

    /// Watches `root` and the folders under it; with `takeFiles`, the files already in them
    /// are pending too (they may have arrived before the watch did).
    ///
    /// Symbolic links to folders are followed, as the walk follows them, and in the walk's
    /// order (names sorted, depth first), so that a folder is watched under the name the walk
    /// gives its files, and once. Inotify keeps one watch a folder: a folder met again, through
    /// a loop of links or a second link to it, has its watch already, under the name it was
    /// first met by, and is not entered again.
    private func watchTree(_ root: String, takeFiles: Bool) throws(WardrobeError) {
        let events = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB
                            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)
        // The folders of this walk: a rescan reads the watched folders again, each once.
        var entered = Set<Int32>()
        var stack = [root]
        while let path = stack.popLast() {
            guard let identity = Self.folder(path) else { continue }
            let wd = PathName.withSystemName(path) { inotify_add_watch(descriptor, $0, events) }
            guard wd >= 0 else {
                // A folder under the root that cannot be read (a link may lead anywhere) is passed
                // over, as the walk passes over it, naming it; out of watches, nothing is watched well.
                if errno != ENOSPC && !PathName.same(path, root) { continue }
                throw .system("\(PathName.display(path)): cannot watch: \(String(cString: strerror(errno)))"
                                   + (errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""))
            }
            guard entered.insert(wd).inserted else { continue }
            if let known = folders[wd], !PathName.same(known.path, path) {
                // Watched under another name that still leads to it: the name the walk takes.
                if Self.folder(known.path) == identity { continue }
                forget(wd)   // a name it had before it was moved
            }
            folders[wd] = Folder(path: path, identity: identity)
            watches[PathName.Key(path)] = wd
            var subfolders: [String] = []
            for name in (PathName.names(inFolder: path) ?? []).sorted() where includeHidden || !name.hasPrefix(".") {
                let entry = path + "/" + name
                var status = stat()
                guard PathName.withSystemName(entry, { stat($0, &status) }) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    subfolders.append(entry)
                } else if takeFiles, (status.st_mode & S_IFMT) == S_IFREG, PhotoFinder.notPhotoExtension(of: name) == nil,
                          !own.contains(name: name, in: identity, file: PhotoFinder.FileIdentity(status)) {
                    pending[PathName.Key(entry)] = Pending(lastEvent: Self.now(), folder: identity)
                }
            }
            stack += subfolders.reversed()
        }
    }

    /// The folder `path` names, after links; nil when it names no folder.
    private static func folder(_ path: String) -> PhotoFinder.FileIdentity? {
        var status = stat()
        guard PathName.withSystemName(path, { stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return PhotoFinder.FileIdentity(status)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
