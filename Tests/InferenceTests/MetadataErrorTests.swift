import Foundation
import Inference
import Testing

/// A metadata value that does not decode is refused with where it is wrong and what was
/// wanted, in words. The refusal used to carry Swift's debugging text ("DecodingError.keyNotFound:
/// Key 'inputs' not found in keyed decoding container. ... Keys(stringValue: "inputs", intValue:
/// nil)"), and called JSON nested too deeply, or a number too large for its field, "not valid JSON".
@Suite struct MetadataErrorTests {
    /// The tiny model with the JSON of its metadata value `key` changed by `change`.
    static func edited(_ key: String, _ change: (inout Any) -> Void) -> [UInt8] {
        ModelFileTests.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            var value = try! JSONSerialization.jsonObject(with: Data(metadata[key]!.utf8), options: [.fragmentsAllowed])
            change(&value)
            metadata[key] = String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]),
                                   as: UTF8.self)
            json["__metadata__"] = metadata
        }
    }

    static func editedLayer(_ change: @escaping (inout [String: Any]) -> Void) -> [UInt8] {
        edited("functions") { value in
            var functions = value as! [String: Any]
            var main = functions["main"] as! [String: Any]
            var layers = main["layers"] as! [[String: Any]]
            change(&layers[0])
            main["layers"] = layers
            functions["main"] = main
            value = functions
        }
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ModelFile(bytes: bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aValueOfTheWrongKindSaysWhereAndWhatWasWanted() {
        #expect(Self.refusal(Self.editedLayer { $0["stride"] = "1" })
                == "model metadata is invalid: 'functions' is not valid: its main.layers[0].stride is not a whole number")
        #expect(Self.refusal(Self.editedLayer { $0["inputs"] = nil })
                == "model metadata is invalid: 'functions' is not valid: its main.layers[0].inputs is missing")
        #expect(Self.refusal(Self.editedLayer { $0["op"] = NSNull() })
                == "model metadata is invalid: 'functions' is not valid: its main.layers[0].op is null, not a string")
        #expect(Self.refusal(Self.edited("labels") { $0 = [1, 2] })
                == "model metadata is invalid: 'labels' is not valid: its [0] is not a string")
        #expect(Self.refusal(Self.edited("labels") { $0 = ["a": 1] })
                == "model metadata is invalid: 'labels' is not valid: the value is not a list")
        #expect(Self.refusal(Self.edited("training") { $0 = ["temperature": 2] })
                == "model metadata is invalid: 'training' is not valid: its temperature is not a string")
    }

    @Test func jsonNestedTooDeeplyIsNotCalledInvalid() {
        let deep = ModelFileTests.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata["training"] = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            json["__metadata__"] = metadata
        }
        let refusal = Self.refusal(deep)
        #expect(refusal == "model metadata is invalid: 'training' is not valid: not JSON this reader takes "
                + "(not JSON at all, nested too deeply, or a number too large for its field)")
        for bytes in [deep, Self.editedLayer { $0["stride"] = "1" }, Self.edited("labels") { $0 = [1, 2] }] {
            let text = Self.refusal(bytes) ?? ""
            #expect(!text.contains("DecodingError") && !text.contains("Debug description") && !text.contains("CodingKeys"), "\(text)")
        }
    }
}
