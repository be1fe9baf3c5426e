import Catalogue
import Files
import Foundation
import Imaging
import Inference

/// Which model a command uses, by the one rule every command follows:
/// `--model`, else `$WARDROBE_MODEL`, else the model the catalogue adopted
/// (`wardrobe model use`), else the bundled one. Never what the last run
/// happened to use.
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
    /// The rule, given the catalogue if the command has it open.
    public func modelChoice(explicit: String?, catalogue: Catalogue?) throws -> ModelChoice {
        if let explicit, !explicit.isEmpty { return ModelChoice(source: .option, path: explicit) }
        if let path = try environmentModelPath() { return ModelChoice(source: .environment, path: path) }
        if let catalogue, let adopted = try Self.adopted(by: catalogue) { return adopted }
        return ModelChoice(source: .bundled, path: try modelPath(explicit: nil))
    }

    /// The rule for a command that has not opened the catalogue: it is read
    /// (never created) only when no option or variable decides first. A catalogue that is
    /// not there yet, no file or an empty one (`touch`, `mktemp`), has adopted no model; the
    /// empty file used to stop `import` and `classify` with "no catalogue there yet; import
    /// photos first", where a missing file is made.
    public func modelChoice(explicit: String?, cataloguePath explicitCatalogue: String?) throws -> ModelChoice {
        let decided = try (explicit?.isEmpty == false) || environmentModelPath() != nil
        let path = try cataloguePath(explicit: explicitCatalogue)
        guard !decided, FileManager.default.fileExists(atPath: path) else {
            return try modelChoice(explicit: explicit, catalogue: nil)
        }
        let catalogue: Catalogue
        do {
            catalogue = try Catalogue(path: path, mode: .readOnly, lookForDamage: false)
        } catch CatalogueError.fileNotFound {
            return try modelChoice(explicit: explicit, catalogue: nil)
        }
        return try modelChoice(explicit: explicit, catalogue: catalogue)
    }

    /// The recipe rule for a command that does not load the model: the recipe
    /// named, else the chosen model's (only then is a model looked for).
    public func recipe(named name: String?, model explicit: String?, cataloguePath: String?) throws -> any PrepRecipe {
        if let name { return try recipe(named: name) }
        return try recipe(named: nil, forModel: modelChoice(explicit: explicit, cataloguePath: cataloguePath))
    }

    /// Loads and prepares the chosen model: once per process.
    public func classifier(_ choice: ModelChoice) throws(WardrobeError) -> ClothingClassifier {
        try ClothingClassifier(modelBytes: choice.modelBytes(), path: choice.path)
    }

    public func classifier(explicit: String?, catalogue: Catalogue?) throws -> ClothingClassifier {
        try classifier(modelChoice(explicit: explicit, catalogue: catalogue))
    }

    public func classifier(explicit: String?, cataloguePath: String?) throws -> ClothingClassifier {
        try classifier(modelChoice(explicit: explicit, cataloguePath: cataloguePath))
    }

    /// The catalogue's adopted model, nil when it has none (or went back to
    /// the bundled one). The file it came from is used while it still holds
    /// the adopted bytes; otherwise the copy kept in the catalogue.
    static func adopted(by catalogue: Catalogue) throws -> ModelChoice? {
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
