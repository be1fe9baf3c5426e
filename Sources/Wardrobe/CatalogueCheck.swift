import Catalogue
import Foundation

/// `wardrobe check`: SQLite's full integrity check of a catalogue file. The
/// file is opened as a plain read-only database, not as a catalogue, so that
/// damage where the catalogue's own checks look cannot keep it from being checked.
public enum CatalogueCheck {
    /// What is damaged (empty when nothing is). `progress` is called every
    /// fraction of a second with the seconds spent.
    public static func run(path: String, progress: @escaping (Double) -> Void) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly)
        do {
            let lines = try database.integrityCheck { seconds in
                progress(seconds)
                return true
            }
            // Values are looked at in a whole file only: on damaged pages their reads would fail.
            return lines == ["ok"] ? try database.strangeValues() : lines
        } catch CatalogueError.damaged(_, let detail) {
            // So damaged that the check itself cannot go on (its schema, say).
            return ["the check stopped: \(detail)"]
        } catch CatalogueError.notADatabase {
            return ["the file's header is damaged or it is not an SQLite database at all"]
        }
    }
}
