import Foundation
import Inference
import Testing

/// The metadata's compatibility rule (docs/model-format.md), both ways: a file
/// from a newer writer that only added optional keys reads here and computes
/// the same; a file of a newer format version is refused with a clear message;
/// what this writer writes is exactly format 1, so an older reader of format 1
/// reads it.
@Suite struct FormatCompatibilityTests {
    static func metadata(_ json: [String: Any]) -> [String: String] { json["__metadata__"] as! [String: String] }

    /// The tiny model as a newer writer might have written it: new top-level
    /// keys, a new field in a layer, in a signature and in a function.
    static func withUnknownKeys() -> [UInt8] {
        ModelFileTests.edited { json, _ in
            var metadata = Self.metadata(json)
            metadata["parent"] = "clothing 1.0"
            metadata["calibration"] = #"{"temperature": 1.5}"#
            var functions = try! JSONSerialization.jsonObject(with: Data(metadata["functions"]!.utf8)) as! [String: Any]
            var main = functions["main"] as! [String: Any]
            var layers = main["layers"] as! [[String: Any]]
            layers[0]["dilation_note"] = "a field this reader has never heard of"
            layers[3]["ceil_mode"] = false
            main["layers"] = layers
            var inputs = main["inputs"] as! [[String: Any]]
            inputs[0]["color_space"] = "gray"
            main["inputs"] = inputs
            main["doc"] = "a function-level note"
            functions["main"] = main
            metadata["functions"] = String(decoding: try! JSONSerialization.data(withJSONObject: functions), as: UTF8.self)
            json["__metadata__"] = metadata
        }
    }

    @Test func aReaderIgnoresKeysItDoesNotKnow() throws {
        let plain = ModelFileTests.tinyModel()
        let extended = try ModelFile(bytes: Self.withUnknownKeys())
        #expect(extended == plain, "unknown keys change nothing this reader keeps")
        var random = Random(seed: 5)
        let image = NDArray(shape: [3, 1, 28, 28], scalars: (0..<3 * 784).map { _ in abs(random.float()) })
        let a = try CompiledModel(file: plain).function(named: "main").run(inputs: ["image": image])
        let b = try CompiledModel(file: extended).function(named: "main").run(inputs: ["image": image])
        #expect(a == b)
    }

    @Test func optionalKeysMayBeAbsent() throws {
        let bytes = ModelFileTests.edited { json, _ in
            var metadata = Self.metadata(json)
            metadata["training"] = nil
            json["__metadata__"] = metadata
        }
        #expect(try ModelFile(bytes: bytes).description.training == [:])
    }

    @Test func aNewerFormatVersionIsRefusedByName() {
        func withVersion(_ version: String?) -> [UInt8] {
            ModelFileTests.edited { json, _ in
                var metadata = Self.metadata(json)
                metadata["format_version"] = version
                json["__metadata__"] = metadata
            }
        }
        let newer = ModelDescription.currentFormatVersion + 1
        #expect(throws: ModelError.badMetadata(
            "format_version \(newer) is newer than this reader (\(ModelDescription.currentFormatVersion)); a newer wardrobe wrote it and is needed to read it")) {
            try ModelFile(bytes: withVersion(String(newer)))
        }
        for bad in ["0", "1.5", "one"] {
            #expect(throws: ModelError.badMetadata("format_version is '\(bad)', expected a whole number from 1")) {
                try ModelFile(bytes: withVersion(bad))
            }
        }
        #expect(throws: ModelError.badMetadata("format_version is missing, expected a whole number from 1")) {
            try ModelFile(bytes: withVersion(nil))
        }
    }

    /// What this writer writes is what a format-1 reader expects: the
    /// documented keys and version, nothing it would have to ignore.
    @Test func theWriterWritesTheCurrentFormat() {
        let (json, _) = ModelFileTests.split(ModelFileTests.tinyModel().serialized())
        let metadata = Self.metadata(json)
        #expect(metadata["format"] == "wardrobe.aimodel")
        #expect(metadata["format_version"] == String(ModelDescription.currentFormatVersion))
        #expect(ModelDescription.currentFormatVersion == 1)
        #expect(Set(metadata.keys) == ["format", "format_version", "name", "version", "labels", "functions", "training"])
    }
}
