internal import Catalogue
import Inference
import Files
import Foundation

/// How `list --model` names a registered model: its id, its name (or
/// `name@version`), a prefix of its file's SHA-256, or the model file itself.
public enum ModelReference {
    static func resolve(_ text: String, in catalogue: any CatalogueStore) throws -> ModelRecord {
        let models = try catalogue.models()
        if FileManager.default.isReadableFile(atPath: text), !FileManager.default.isDirectory(text) {
            let bytes: [UInt8]
            do {
                bytes = try RegularFile.read(text, maxSize: ModelFile.maxFileSize)
            } catch {
                throw WardrobeError.model(path: text, reason: "cannot read: \(error.reason)")
            }
            let digest = SHA256.digest(bytes)
            if let model = models.first(where: { $0.sha256.bytes == digest }) { return model }
            throw WardrobeError.notFound("model \(text) in \(catalogue.path) (it has never been used there)")
        }
        if let id = Int64(text), let model = models.first(where: { $0.id.rawValue == id }) { return model }
        let byName = models.filter { $0.name == text || "\($0.name)@\($0.version)" == text }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw WardrobeError.invalidArgument("model name '\(text)' matches \(byName.count) models ("
                + byName.map { "\($0.name)@\($0.version) id \($0.id)" }.joined(separator: ", ") + "); give name@version or the id")
        }
        let prefix = text.lowercased()
        if prefix.count >= 4, prefix.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit) {
            let byHash = models.filter { $0.sha256.hex.hasPrefix(prefix) }
            if byHash.count == 1 { return byHash[0] }
            if byHash.count > 1 { throw WardrobeError.invalidArgument("model hash prefix \(text) matches \(byHash.count) models") }
        }
        let known = models.map { "\($0.id): \($0.name)@\($0.version)" }.joined(separator: ", ")
        throw WardrobeError.notFound("model '\(text)' in \(catalogue.path) (registered: \(known.isEmpty ? "none" : known))")
    }

    /// "name@version" of every registered model, by id, for printing rows.
    static func names(in catalogue: any CatalogueStore) throws -> [ModelID: String] {
        Dictionary(uniqueKeysWithValues: try catalogue.models().map { ($0.id, "\($0.name)@\($0.version)") })
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
