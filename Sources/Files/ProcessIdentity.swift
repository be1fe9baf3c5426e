import Foundation

/// A process as another process can later judge it: host name, boot id, process id and the
/// process's start time (in clock ticks since boot). A pid alone is not enough, because pids
/// are reused; with the boot id and the start time, "that process is gone" is certain on the
/// same host. A process on another host (a shared folder) cannot be judged, and counts as
/// running. Runs record it (`RunOwner`), and so do the names of files being written
/// (`UnfinishedFile`).
public struct ProcessIdentity: Sendable, Equatable {
    /// "-" where a part is unknown (no /proc).
    public var host: String
    public var boot: String
    public var pid: Int32
    public var start: String

    public init(host: String, boot: String, pid: Int32, start: String) {
        self.host = host
        self.boot = boot
        self.pid = pid
        self.start = start
    }

    /// This process.
    public static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(host: hostName(), boot: bootID() ?? "-", pid: pid, start: startTime(of: pid) ?? "-")
    }()

    /// Whether the process is certainly gone.
    public var isGone: Bool {
        guard host == Self.current.host else { return false }
        if boot != "-", let currentBoot = Self.bootID() {
            guard boot == currentBoot else { return true }  // the machine restarted since
            guard let started = Self.startTime(of: pid) else { return true }
            return start != started  // another process now has this pid
        }
        // No /proc (not Linux): the pid alone, as well as it can be judged.
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The host name, with what cannot stand in a file name or a space-separated record
    /// (space, slash, `+`) made `_`.
    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "-" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safe = String(name.map { " /+".contains($0) ? "_" : $0 })
        return safe.isEmpty ? "-" : safe
    }

    private static func bootID() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else {
            return nil
        }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }

    /// Field 22 of /proc/PID/stat: when the process started, in ticks since boot.
    /// The command name (field 2) may hold spaces and parentheses, so fields
    /// are counted from the last ')'.
    private static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 is fields[19].
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
