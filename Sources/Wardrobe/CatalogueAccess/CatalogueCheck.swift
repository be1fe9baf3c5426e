internal import Catalogue
import Foundation

/// What `wardrobe check` and the readers of a catalogue say of damage they find.
enum CatalogueCheck {
    /// How a reader names an adoption whose kept copy is not its model (as `check` counts
    /// them: `CatalogueStorage.changedModelCopies`).
    static func changedCopy(adoption: Int64, model: String) -> String {
        "model adoption \(adoption): the copy kept of \(model) is not that model's file, its SHA-256 differs"
    }
}
