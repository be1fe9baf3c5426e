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
            return lines == ["ok"] ? try database.strangeValues() + changedModelCopies(in: database) : lines
        } catch CatalogueError.damaged(_, let detail) {
            // So damaged that the check itself cannot go on (its schema, say).
            return ["the check stopped: \(detail)"]
        } catch CatalogueError.notADatabase {
            return ["the file's header is damaged or it is not an SQLite database at all"]
        }
    }

    /// The copies of adopted model files (`model use`) that are not the model their adoption
    /// names, by SHA-256: a command falls back on the copy when the file it came from is gone.
    static func changedModelCopies(in database: Database) throws -> [String] {
        let copies = try database.rows(
            "SELECT a.file, m.sha256 FROM model_adoptions a JOIN models m ON m.id = a.model_id WHERE a.file IS NOT NULL"
        ) { row in (file: row.blob(0), sha256: row.blob(1)) }
        let count = copies.filter { SHA256.digest($0.file) != $0.sha256 }.count
        guard count > 0 else { return [] }
        return ["model adoptions whose kept copy of the model file is not that model: \(count) "
                + "\(count == 1 ? "row" : "rows") (changed by another program)"]
    }

    /// How a reader names an adoption whose kept copy is not its model (see `changedModelCopies`).
    static func changedCopy(adoption: Int64, model: String) -> String {
        "model adoption \(adoption): the copy kept of \(model) is not that model's file, its SHA-256 differs"
    }
}
