import Files

/// The process that runs a run, written into the run's record when it opens: host name,
/// boot id, process id and start time, separated by spaces (see `ProcessIdentity`).
public enum RunOwner {
    /// This process, as recorded in the runs it opens.
    public static let current: String = {
        let me = ProcessIdentity.current
        return [me.host, me.boot, String(me.pid), me.start].joined(separator: " ")
    }()

    /// Whether the process recorded as `owner` is certainly gone. A run from
    /// before owners were recorded (nil) has no process left to finish it.
    public static func isGone(_ owner: String?) -> Bool {
        guard let owner else { return true }
        let parts = owner.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let pid = Int32(parts[2]) else { return true }
        return ProcessIdentity(host: parts[0], boot: parts[1], pid: pid, start: parts[3]).isGone
    }
}
