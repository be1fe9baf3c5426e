internal import Catalogue
import Files
import Foundation
import Imaging
import Inference

/// Which model a command uses, by the one rule every command follows:
/// `--model`, else `$WARDROBE_MODEL`, else the model the catalogue adopted
/// (`wardrobe model use`), else the bundled one. Never what the last run
/// happened to use.
///
/// `Models/` owns the models a catalogue knows: this choice, adopting one (`model use`),
/// listing and naming them, and evaluating one (on the Fashion-MNIST test set, on folders
/// of labelled photos, and its agreement with a person's labels).
public struct ModelChoice: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case option = "--model"
        case environment = "WARDROBE_MODEL"
        case catalogue = "the catalogue's model"
        case bundled = "the bundled model"
    }

    public var source: Source
    /// The file: for an adopted model, the one it was adopted from.
    public var path: String
    /// The model's bytes when already read: an adopted model's file, or,
    /// when that is gone or changed, the copy the catalogue kept at adoption.
    public var bytes: [UInt8]?

    public init(source: Source, path: String, bytes: [UInt8]? = nil) {
        self.source = source
        self.path = path
        self.bytes = bytes
    }

    /// The model's bytes: those already read, else the file's.
    public func modelBytes() throws(WardrobeError) -> [UInt8] {
        if let bytes { return bytes }
        return try ClothingClassifier.readModel(at: path)
    }
}

extension WardrobeSetup {
    /// The rule; `catalogue` gives the command's catalogue when one is there, and is asked
    /// only when no option or variable decides first.
    func modelChoice(explicit: String?, catalogue: () throws -> (any CatalogueStore)?) throws -> ModelChoice {
        if let explicit, !explicit.isEmpty { return ModelChoice(source: .option, path: explicit) }
        if let path = try environmentModelPath() { return ModelChoice(source: .environment, path: path) }
        if let catalogue = try catalogue(), let adopted = try Self.adopted(by: catalogue) { return adopted }
        return ModelChoice(source: .bundled, path: try modelPath(explicit: nil))
    }

    /// Loads and prepares the chosen model: once per process.
    public func classifier(_ choice: ModelChoice) throws(WardrobeError) -> ClothingClassifier {
        try ClothingClassifier(modelBytes: choice.modelBytes(), path: choice.path)
    }

    /// The catalogue's adopted model, nil when it has none (or went back to
    /// the bundled one). The file it came from is used while it still holds
    /// the adopted bytes; otherwise the copy kept in the catalogue.
    static func adopted(by catalogue: any CatalogueStore) throws -> ModelChoice? {
        guard let adoption = try catalogue.adoptedModel(), let id = adoption.model,
              let record = try catalogue.model(id) else { return nil }
        let source = adoption.sourcePath ?? "model \(record.name) \(record.version)"
        if let bytes = try? RegularFile.read(source, maxSize: ModelFile.maxFileSize),
           SHA256.digest(bytes) == record.sha256.bytes {
            return ModelChoice(source: .catalogue, path: source, bytes: bytes)
        }
        guard let kept = try catalogue.adoptedModelFile(adoption.id) else {
            throw WardrobeError.catalogue(path: catalogue.path, reason:
                "its model (\(record.name) \(record.version), adopted from \(source)) is gone and no copy was kept; run 'wardrobe model use FILE' again")
        }
        // The copy is the adopted file's bytes: another program may have changed them (truncated,
        // replaced), and they were then loaded as the adopted model or refused as a file that
        // is truncated, with no word of where the damage is.
        guard SHA256.digest(kept) == record.sha256.bytes else {
            throw CatalogueError.strangeValue(path: catalogue.path, detail: CatalogueCheck.changedCopy(
                adoption: adoption.id, model: "\(record.name) \(record.version)"))
        }
        return ModelChoice(source: .catalogue, path: source + " (the copy kept in the catalogue)", bytes: kept)
    }
}
