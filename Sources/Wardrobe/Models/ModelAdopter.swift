internal import Catalogue
import Files
import Foundation
import Inference

/// `wardrobe model use`: a catalogue adopts a model, which then classifies
/// for every command that has no `--model` (see `ModelChoice`). The model is
/// checked against the contract first, registered, and its bytes kept in the
/// catalogue, so moving or deleting the file later changes nothing.
public struct ModelAdopter {
    let catalogue: any CatalogueStore

    init(catalogue: any CatalogueStore) {
        self.catalogue = catalogue
    }

    public struct Adopted: Sendable {
        public var model: ModelIdentity
        var id: ModelID
        /// The catalogue had already adopted this very file (same hash) last.
        public var wasInUse: Bool
    }

    /// Adopts the model file at `path` (made absolute, so the record names it from anywhere).
    public func adopt(modelAt path: String, command: String = "model use") throws -> Adopted {
        let absolute = PathName.absolute(path)
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(absolute, maxSize: ModelFile.maxFileSize)
        } catch {
            throw WardrobeError.model(path: path, reason: "cannot read: \(error.reason)")
        }
        let model = try ClothingClassifier(modelBytes: bytes, path: absolute).model
        let previous = try catalogue.adoptedModel()
        let id = try catalogue.registerModel(model.catalogueModel())
        try catalogue.adoptModel(id, file: bytes, sourcePath: absolute, command: command)
        return Adopted(model: model, id: id, wasInUse: previous?.model == id)
    }

    /// Goes back to the bundled model (recorded as an adoption of none).
    public func adoptBundled(command: String = "model use --bundled") throws {
        try catalogue.adoptModel(nil, command: command)
    }
}
