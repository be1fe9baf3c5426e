internal import Catalogue
import Foundation

/// `wardrobe check`: every page and value of a catalogue looked at for damage
/// (see `CatalogueStorage.check`), without opening it as a catalogue, so that
/// damage where the catalogue's own checks look cannot keep it from being checked.
public enum CatalogueCheck {
    /// What is damaged (empty when nothing is). `progress` is called every
    /// fraction of a second with the seconds spent.
    public static func run(path: String, progress: @escaping (Double) -> Void) throws -> [String] {
        try CatalogueStorage.check(path, digest: SHA256.digest, progress: progress)
    }

    /// How a reader names an adoption whose kept copy is not its model (see `changedModelCopies`).
    static func changedCopy(adoption: Int64, model: String) -> String {
        "model adoption \(adoption): the copy kept of \(model) is not that model's file, its SHA-256 differs"
    }
}
