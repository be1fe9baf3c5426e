internal import Catalogue
import Files
import Foundation

/// Where the catalogue lives: `--db PATH`, else `$WARDROBE_DB`, else
/// `$XDG_DATA_HOME/wardrobe/catalogue.sqlite`, else `~/.local/share/wardrobe/...`.
public enum CatalogueLocation {
    public static let fileName = "catalogue.sqlite"

    /// The catalogue's path and whether a person named it. Only a defaulted one gets its
    /// folders made, and that is told by where the path came from, never by comparing it with
    /// the default: `--db` naming the default place is a named path like any other.
    public struct Choice: Equatable, Sendable {
        public var path: String
        /// True for `--db` or `$WARDROBE_DB`, false for the default place.
        public var isNamed: Bool
    }

    public static func choose(explicit: String?, environment: [String: String]) throws(WardrobeError) -> Choice {
        let choice = if let explicit, !explicit.isEmpty {
            Choice(path: asFile(explicit), isNamed: true)
        } else if let path = environment["WARDROBE_DB"], !path.isEmpty {
            Choice(path: asFile(path), isNamed: true)
        } else {
            Choice(path: try defaultPath(environment: environment), isNamed: false)
        }
        if let problem = nameProblem(choice.path) { throw .invalidArgument(problem) }
        return choice
    }

    /// Why `path` cannot name a catalogue, if it cannot: a name holding bytes that are not
    /// UTF-8 (`\xff.sqlite`, from `--db`, `$WARDROBE_DB`, `$HOME` or `$XDG_DATA_HOME`). SQLite
    /// and the look at the catalogue's files take the name as UTF-8, so the catalogue was made,
    /// read and backed up under another name (`\xF4\x8F\xBF\xBF.sqlite`, the byte as it is
    /// decoded) while every message named the one given, and a catalogue already under the
    /// name given was never found.
    public static func nameProblem(_ path: String) -> String? {
        guard !PathName.isExact(path) else { return nil }
        return "\(PathName.display(path)): a catalogue's name must be UTF-8, and this one holds bytes that are not "
            + "(shown as \\xHH); rename it or name another catalogue"
    }

    /// Where the catalogue lives when no one names it, whose folders are made on first use
    /// (see `WardrobeSetup.openCatalogue`). A `$HOME` that is set but not an absolute path
    /// (empty, or `relative`) names no home: taken as it was, it put the catalogue in
    /// `/.local/share/...` at the root, or under whatever folder the command ran in, a new one
    /// each time. It is refused, as XDG refuses a relative XDG_DATA_HOME; unset, the
    /// account's home is used.
    static func defaultPath(environment: [String: String]) throws(WardrobeError) -> String {
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return "\(dataHome)/wardrobe/\(fileName)"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        guard home.hasPrefix("/") else {
            throw .invalidArgument("HOME is '\(VisibleText.escaped(home))', not an absolute path, so the catalogue has "
                                   + "no default place; set HOME or XDG_DATA_HOME to a folder, or name the catalogue with --db")
        }
        // A home that is not there (HOME=/nonexistent, a service account's) is not one to make:
        // the catalogue's folders were made from the root up, a whole home nobody had.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: home, isDirectory: &isFolder), isFolder.boolValue else {
            throw .invalidArgument("HOME is '\(VisibleText.escaped(home))', which is not a folder, so the catalogue has "
                                   + "no default place; set HOME or XDG_DATA_HOME to a folder, or name the catalogue with --db")
        }
        return "\(home)/.local/share/wardrobe/\(fileName)"
    }

    /// A name given for the catalogue is a file: SQLite takes ":memory:" for a database
    /// kept in memory and lost at exit, so that name is the file of the current folder.
    static func asFile(_ path: String) -> String { path == ":memory:" ? "./:memory:" : path }

    /// The files that make up the catalogue at `path` (for SQLite, its -wal, -shm and -journal
    /// beside it), which no output may replace.
    public static func files(of path: String) -> [OutputFile.Input] {
        CatalogueStorage.files(of: path).map { OutputFile.Input(path: $0.path, role: $0.role) }
    }
}
