import Files
import Foundation

/// The name of the machine a path was seen on: several machines share one catalogue on a
/// server, and a path means nothing on another machine, so every path is recorded with its
/// machine and the look at paths (`prune`, path states, `--watch`) judges only this one's.
/// `WARDROBE_MACHINE` names it, else the host name.
public enum Machine {
    /// This process's machine.
    public static let current: String = named(environment: ProcessInfo.processInfo.environment["WARDROBE_MACHINE"])

    /// `value` without surrounding white space, else the host name when that is empty or unset.
    static func named(environment value: String?) -> String {
        let name = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return name.isEmpty ? ProcessIdentity.current.host : name
    }

    /// How a path of another machine is shown beside this one's: `machine:path`, as scp and
    /// rsync write a path on another host; this machine's paths are shown as they are.
    public static func shown(_ path: String, on machine: String?, from here: String) -> String {
        guard let machine, machine != here else { return path }
        return machine + ":" + path
    }
}
