import Catalogue
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

    public static func choose(explicit: String?, environment: [String: String]) -> Choice {
        if let explicit, !explicit.isEmpty { return Choice(path: asFile(explicit), isNamed: true) }
        if let path = environment["WARDROBE_DB"], !path.isEmpty { return Choice(path: asFile(path), isNamed: true) }
        return Choice(path: defaultPath(environment: environment), isNamed: false)
    }

    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        choose(explicit: explicit, environment: environment).path
    }

    /// Where the catalogue lives when no one names it, whose folders are made on first use
    /// (see `WardrobeSetup.openCatalogue`).
    static func defaultPath(environment: [String: String]) -> String {
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return "\(dataHome)/wardrobe/\(fileName)"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return "\(home)/.local/share/wardrobe/\(fileName)"
    }

    /// A name given for the catalogue is a file: SQLite takes ":memory:" for a database
    /// kept in memory and lost at exit, so that name is the file of the current folder.
    static func asFile(_ path: String) -> String { path == ":memory:" ? "./:memory:" : path }

    /// The catalogue at `path` and SQLite's files beside it, which no output may replace.
    public static func files(of path: String) -> [OutputFile.Input] {
        Catalogue.fileSuffixes.map { suffix in
            OutputFile.Input(path: path + suffix, role: suffix.isEmpty ? "the catalogue" : "the catalogue's \(suffix.dropFirst()) file")
        }
    }
}
