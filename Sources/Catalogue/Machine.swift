import Files
import Foundation

/// The name of the machine a path was seen on: several machines share one catalogue on a
/// server, and a path means nothing on another machine, so every path is recorded with its
/// machine and the look at paths (`prune`, path states, `--watch`) judges only this one's.
/// `WARDROBE_MACHINE` names it, else the host name.
public enum Machine {
    /// This process's machine.
    public static let current: String = named(environment: variable)

    /// Why `WARDROBE_MACHINE` cannot name this machine, if it cannot (a catalogue is then not
    /// opened): every path this machine records carries the name, and listings show it.
    public static let problem: String? = problem(environment: variable)

    /// `WARDROBE_MACHINE` with its bytes kept (`PathName`): `ProcessInfo` put U+FFFD in place
    /// of a byte that is not UTF-8, and that name was recorded with every path.
    private static let variable: String? = getenv("WARDROBE_MACHINE").map { value in
        PathName.decode(UnsafeBufferPointer(start: value, count: strlen(value)).map { UInt8(bitPattern: $0) })
    }

    /// The longest name, in bytes, as a host name's.
    static let longestName = 255

    /// A name that is not a host's: too long, or holding a control character or a `:`, which
    /// `shown` puts between a machine and its path.
    static func problem(environment value: String?) -> String? {
        let name = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if name.utf8.count > longestName {
            return "WARDROBE_MACHINE is \(name.utf8.count) bytes long; a machine's name is at most \(longestName)"
        }
        // Invisible characters too (a zero-width space, a direction override, a byte that is not
        // UTF-8): every output shows them escaped, and a name that looks like another machine's
        // (`host<ZWSP>`) had its paths judged as another machine's, alone and unseen.
        if VisibleText.holdsControl(name) || name.contains(":") || !PathName.isExact(name) {
            return "WARDROBE_MACHINE holds a control or invisible character, a byte that is not UTF-8 or a ':'; "
                + "name the machine as its host name is written"
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
