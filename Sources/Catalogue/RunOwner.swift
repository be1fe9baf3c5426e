import Foundation

/// The process that runs a run, written into the run's record when it
/// opens: host name, boot id, process id and the process's start time (in
/// clock ticks since boot). A pid alone is not enough, because pids are
/// reused; with the boot id and the start time, "that process is gone" is
/// certain on the same host. A run opened on another host (a catalogue on a
/// shared folder) cannot be judged, and counts as running.
public enum RunOwner {
    /// This process, as recorded in the runs it opens.
    public static let current: String = {
        let pid = getpid()
        return [hostName(), bootID() ?? "-", String(pid), startTime(of: pid) ?? "-"].joined(separator: " ")
    }()

    /// Whether the process recorded as `owner` is certainly gone. A run from
    /// before owners were recorded (nil) has no process left to finish it.
    public static func isGone(_ owner: String?) -> Bool {
        guard let owner else { return true }
        let parts = owner.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let pid = Int32(parts[2]) else { return true }
        guard parts[0] == hostName() else { return false }
        if parts[1] != "-", let boot = bootID() {
            guard parts[1] == boot else { return true }  // the machine restarted since
            guard let started = startTime(of: pid) else { return true }
            return parts[3] != started  // another process now has this pid
        }
        // No /proc (not Linux): the pid alone, as well as it can be judged.
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "-" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "-" : name.replacingOccurrences(of: " ", with: "_")
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
