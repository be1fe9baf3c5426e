import Files
import Foundation

/// The name of the machine a path was seen on: several machines share one catalogue on a
/// server, and a path means nothing on another machine, so every path is recorded with its
/// machine and the look at paths (`prune`, path states, `--watch`) judges only this one's.
/// `WARDROBE_MACHINE` names it, else the host name.
public enum Machine {
    /// This process's machine.
    public static let current: String = named(environment: ProcessInfo.processInfo.environment["WARDROBE_MACHINE"])

    /// Why `WARDROBE_MACHINE` cannot name this machine, if it cannot (a catalogue is then not
    /// opened): every path this machine records carries the name, and listings show it.
    public static let problem: String? = problem(environment: ProcessInfo.processInfo.environment["WARDROBE_MACHINE"])

    /// The longest name, in bytes, as a host name's.
    static let longestName = 255

    /// A name that is not a host's: too long, or holding a control character or a `:`, which
    /// `shown` puts between a machine and its path.
    static func problem(environment value: String?) -> String? {
        let name = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if name.utf8.count > longestName {
            return "WARDROBE_MACHINE is \(name.utf8.count) bytes long; a machine's name is at most \(longestName)"
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == ":" }) {
            return "WARDROBE_MACHINE holds a control character or a ':'; name the machine as its host name is written"
        }
        return nil
    }

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
