import Foundation

/// The description as the safetensors `__metadata__` map: plain strings,
/// structured values as JSON strings.
///
/// The compatibility rule (docs/model-format.md): a reader ignores keys it
/// does not know, at the top of the map and inside its JSON values; a new key
/// is optional, and a writer leaves it out when it has nothing to say, so a
/// file without it reads exactly as before; adding one does not change
/// `format_version`. Only a change that an older reader would misread (a key
/// it knows whose meaning changes, a new required key) raises
/// `currentFormatVersion`, and a reader refuses a version newer than its own.
extension ModelDescription {
    func metadata() -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json<T: Encodable>(_ value: T) -> String {
            String(decoding: try! encoder.encode(value), as: UTF8.self)
        }
        return [
            "format": ModelFile.formatName,
            "format_version": String(Self.currentFormatVersion),
            "name": name,
            "version": version,
            "labels": json(labels),
            "functions": json(functions),
            "training": json(training),
        ]
    }

    init(metadata: [String: String]) throws(ModelError) {
        guard metadata["format"] == ModelFile.formatName else {
            throw .badMetadata("format is \(metadata["format"].map { "'\($0)'" } ?? "missing"), expected '\(ModelFile.formatName)'")
        }
        guard let versionText = metadata["format_version"], let formatVersion = Int(versionText), formatVersion >= 1 else {
            throw .badMetadata("format_version is \(metadata["format_version"].map { "'\($0)'" } ?? "missing"), expected a whole number from 1")
        }
        guard formatVersion <= Self.currentFormatVersion else {
            throw .badMetadata("format_version \(formatVersion) is newer than this reader (\(Self.currentFormatVersion)); a newer wardrobe wrote it and is needed to read it")
        }
        func decode<T: Decodable>(_ type: T.Type, _ key: String) throws(ModelError) -> T {
            guard let text = metadata[key] else { throw .badMetadata("'\(key)' is missing") }
            do {
                return try JSONDecoder().decode(type, from: Data(text.utf8))
            } catch let unknown as UnknownOperation {
                throw .unknownOperation(unknown.name)
            } catch let error as DecodingError {
                throw .badMetadata("'\(key)' is not valid: \(Self.plain(error))")
            } catch {
                throw .badMetadata("'\(key)' is not valid: \(error)")
            }
        }
        /// An optional key: absent means nothing to say.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: String) throws(ModelError) -> T? {
            metadata[key] == nil ? nil : try decode(type, key)
        }
        guard let name = metadata["name"], let version = metadata["version"] else {
            throw .badMetadata("name or version is missing")
        }
        for (key, value) in [("name", name), ("version", version)] {
            if let problem = Self.problem(withIdentity: value) { throw .badMetadata("the model's \(key) \(problem)") }
        }
        self.init(name: name, version: version,
                  labels: try decode([String].self, "labels"),
                  functions: try decode([String: FunctionDescription].self, "functions"),
                  training: try decodeIfPresent([String: String].self, "training") ?? [:])
    }

    /// A decoding error in words a person can act on: where in the value, and what was wanted.
    /// Its own description is Swift's debugging text ("DecodingError.keyNotFound: Key 'inputs'
    /// not found in keyed decoding container ... Keys(stringValue: \"inputs\", intValue: nil)"),
    /// and said "not valid JSON" of JSON nested too deeply or a number too large for its field.
    static func plain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the value" : "its " + (text.hasPrefix(".") ? String(text.dropFirst()) : text)
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is Int.Type: "a whole number"
            case is String.Type: "a string"
            case is Double.Type, is Float.Type: "a number"
            case is Bool.Type: "true or false"
            default: "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "an object" : "a value of another kind"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)) is not \(kind(type))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)) is null, not \(kind(type))"
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not JSON this reader takes (not JSON at all, nested too deeply, or a number too large for its field)"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)) is out of range or not understood"
        @unknown default:
            return "not a value this reader understands"
        }
    }
}
