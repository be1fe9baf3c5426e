import Foundation
import Testing

/// Every key of every document `--json` prints is snake case, as most always were
/// (`byte_size`, `mean_confidence`): `model evaluate --images` printed `mappedAccuracy` and
/// `expectedCalibrationError`, and `model info` `testAccuracy` beside its record's
/// `test_accuracy`, so a script reading them had to know which command spoke which way. Keys
/// that are data, not names (the labels in the count per label of `import`'s report), are
/// what they name.
@Suite struct JSONKeyCaseTests {
    static let root = FileManager.default.currentDirectoryPath
    /// Objects whose keys are data: a label's name with its count.
    static let dataKeyed: Set<String> = ["labels", "per_label", "excluded"]

    /// Each key of `value` that is not snake case, with where it is.
    static func otherKeys(_ value: Any, at path: String = "") -> [String] {
        if let object = value as? [String: Any] {
            return object.flatMap { key, inner -> [String] in
                let own = dataKeyed.contains(String(path.split(separator: ".").last ?? ""))
                    || key.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "_" }) ? [] : ["\(path).\(key)"]
                return own + otherKeys(inner, at: "\(path).\(key)")
            }
        }
        if let array = value as? [Any] { return array.flatMap { otherKeys($0, at: path) } }
        return []
    }

    /// The documents a command printed: one, or an array streamed one object a line.
    static func documents(_ output: String) throws -> [Any] {
        try [JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed])]
    }

    @Test func everyJSONDocumentSpeaksSnakeCase() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let photos = Self.root + "/Fixtures/photos", samples = Self.root + "/Fixtures/samples"
        _ = try WardrobeProcess.run(["import", "--quiet", "--db", db, photos])
        _ = try WardrobeProcess.run(["label", "--db", db, "coat", "1"])
        let commands: [[String]] = [
            ["stats"], ["show", "1"], ["list"], ["history", "1"], ["model", "info"], ["model", "list"],
            ["model", "evaluate", "--images", photos, "--map", Self.root + "/bench/clothing-photos.map"],
            ["model", "evaluate", "--limit", "50"], ["duplicates"], ["similar", "1"], ["failures"],
            ["import", samples], ["reclassify", "--dry-run"], ["classify", "--no-save", samples + "/test-3-trouser.jpg"],
            ["colours"], ["fingerprints"], ["capture-times"], ["prune"], ["check"], ["export", "--format", "json"],
        ]
        for command in commands {
            let arguments = command + (command == ["export", "--format", "json"] ? [] : ["--json"]) + ["--db", db]
            let result = try WardrobeProcess.run(arguments)
            #expect([0, 2].contains(result.status), "\(command): \(result.stderr)")
            let documents = try Self.documents(result.stdout)
            #expect(!documents.isEmpty, "\(command)")
            for document in documents {
                #expect(Self.otherKeys(document).isEmpty, "\(command.joined(separator: " ")): \(Self.otherKeys(document))")
            }
        }
    }
}
