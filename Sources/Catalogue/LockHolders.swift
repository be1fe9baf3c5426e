import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The processes holding a POSIX lock on a file, as Linux lists them in /proc/locks: read
/// without opening the file, since closing a descriptor of it drops every lock this process
/// holds there (its other connections'). SQLite holds a shared lock on a catalogue in WAL
/// mode for as long as a connection has it open, so these are the processes using it.
enum LockHolders {
    /// The ids of the processes locking the file `status` describes; empty where /proc/locks
    /// cannot be read (not Linux).
    static func of(_ status: stat) -> Set<Int32> {
        guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let device = UInt64(status.st_dev)
        // Linux's dev_t: the major number in bits 8-19 and 32-43, the minor in bits 0-7 and 20-31.
        let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
        let minor = device & 0xff | (device >> 12) & ~0xff
        let file = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(status.st_ino))
        var holders = Set<Int32>()
        // "1: POSIX  ADVISORY  READ 26069 fe:00:16335215 1073741826 1073742335"; a blocked
        // request starts its line with "->" and holds nothing.
        for line in text.split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "POSIX", fields[5] == file, let pid = Int32(fields[4]) else { continue }
            holders.insert(pid)
        }
        return holders
    }
}
