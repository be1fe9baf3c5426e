import Foundation

/// The name a file has while it is written, before it gets the name a person gave it: hidden,
/// saying what it is, and naming the process that writes it,
/// `.NAME.wardrobe-unfinished+HOST+BOOT+PID+START+TAG`. A process killed while writing (which
/// `PartialFiles` cannot clean up after) leaves a file nobody takes for the finished one (a
/// killed backup's copy is a whole SQLite file, which under a name like `NAME.partial-PID`
/// would open as a backup), and the next writer in that folder removes it once its process
/// is certainly gone (`removeStale`).
public enum UnfinishedFile {
    static let marker = ".wardrobe-unfinished+"

    /// A new name beside `target` (absolute or relative) for this process, `tag` telling
    /// apart the files a process writes there (random when not given).
    public static func name(beside target: String, tag: String = randomTag()) -> String {
        name(beside: target, for: .current, tag: tag)
    }

    /// The same for another process: tests make the names a killed process leaves.
    public static func name(beside target: String, for owner: ProcessIdentity, tag: String) -> String {
        let (folder, file) = split(target)
        let parts = [owner.host, owner.boot, String(owner.pid), owner.start, tag].joined(separator: "+")
        let room = longestName - 1 - marker.utf8.count - parts.utf8.count
        return "\(folder)/.\(prefix(of: file, bytes: room))\(marker)\(parts)"
    }

    /// The most bytes a hidden name may have: the 255 a name may have on Linux's file
    /// systems, less room for the `-journal` SQLite puts after it. Whole, a target name past
    /// about 150 bytes made a hidden name longer than that, and a name the system takes was
    /// refused as too long; what of NAME fits is kept (only the marks after it are read back).
    static let longestName = 255 - "-journal".utf8.count

    /// The longest start of `name` that has at most `bytes` bytes of UTF-8, whole characters.
    private static func prefix(of name: String, bytes: Int) -> String {
        guard name.utf8.count > bytes else { return name }
        var kept = ""
        var count = 0
        for character in name {
            count += character.utf8.count
            guard count <= bytes else { break }
            kept.append(character)
        }
        return kept
    }

    /// Whether the file named `name` (a name, not a path) is one that `name(beside:)` makes, or
    /// a file SQLite keeps beside one (its `-wal`, `-shm`, `-journal`): a file wardrobe is
    /// writing, or one a killed writer left, and never a photo.
    public static func isUnfinished(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(marker)
    }

    public static func randomTag() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<6).map { _ in letters.randomElement()! })
    }

    /// Removes, from the folder `target` is in, the unfinished files (and SQLite's side files
    /// of them) that processes now gone left there, and the `NAME.partial-PID` copies that
    /// backups made before these names, when they are SQLite files (or empty) and no process
    /// has that pid. Returns the names removed. What cannot be judged (a file of another
    /// host, a live process's) stays.
    @discardableResult
    public static func removeStale(beside target: String) -> [String] {
        let folder = split(target).folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "/" : folder) else {
            return []
        }
        var removed: [String] = []
        for name in names where isStale(name, in: folder) && unlink("\(folder)/\(name)") == 0 {
            removed.append(name)
        }
        return removed
    }

    private static func isStale(_ name: String, in folder: String) -> Bool {
        if name.hasPrefix("."), let marked = name.range(of: marker) {
            let parts = name[marked.upperBound...].split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 5, let pid = Int32(parts[2]) else { return false }
            return ProcessIdentity(host: parts[0], boot: parts[1], pid: pid, start: parts[3]).isGone
        }
        return isStaleOldBackupCopy(name, in: folder)
    }

    /// `NAME.partial-PID`, or `-wal`, `-shm` or `-journal` after it: an old backup's copy and
    /// SQLite's side files of it. The copy must be a SQLite file (or empty), a side file's copy
    /// one too or gone.
    private static func isStaleOldBackupCopy(_ name: String, in folder: String) -> Bool {
        guard let marked = name.range(of: ".partial-", options: .backwards) else { return false }
        var copy = name
        for suffix in ["-wal", "-shm", "-journal"] where copy.hasSuffix(suffix) { copy.removeLast(suffix.count) }
        guard let pid = Int32(name[marked.upperBound...].prefix { $0.isNumber }), pid > 0,
              copy.hasSuffix(".partial-\(pid)"), kill(pid, 0) != 0 && errno == ESRCH else { return false }
        let start: [UInt8]
        do {
            start = try RegularFile.read("\(folder)/\(copy)", maxSize: Int.max, first: 16)
        } catch {
            // A FIFO, a device or a folder under that name is no copy a backup made: it stays
            // (a plain open of a FIFO waited for a writer forever, and the command with it).
            if error.kind == .notRegular || error.kind == .directory { return false }
            return copy != name
        }
        return start.isEmpty || start == Array("SQLite format 3\u{0}".utf8)
    }

    private static func split(_ target: String) -> (folder: String, file: String) {
        guard let slash = target.lastIndex(of: "/") else { return (".", target) }
        let folder = String(target[..<slash])
        return (folder.isEmpty ? "" : folder, String(target[target.index(after: slash)...]))
    }
}
