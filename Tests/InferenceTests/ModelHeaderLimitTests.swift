import Foundation
import Inference
import Testing

/// A model's header is a few KB; names and versions are shown in every list and page.
/// Absurd sizes are refused before they cost anything (a 98 MB header took 29 s and
/// 2.6 GB to parse, and a 5 MB name was stored and shown everywhere).
@Suite struct ModelHeaderLimitTests {
    @Test func aHeaderOfMegabytesIsRefusedBeforeItIsParsed() throws {
        // Valid JSON, padded with spaces to 2 MB: nothing but its length is wrong.
        let (json, data) = ModelFileTests.split(ModelFileTests.tinyModel().serialized())
        let header = [UInt8](try JSONSerialization.data(withJSONObject: json)) + [UInt8](repeating: 0x20, count: 2 << 20)
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: header.count >> (8 * $0)) } + header + data
        let started = Date()
        #expect(throws: ModelError.self) { try ModelFile(bytes: bytes) }
        #expect(Date().timeIntervalSince(started) < 0.5)
        do {
            _ = try ModelFile(bytes: bytes)
        } catch {
            #expect(error.description.contains("more than 1024 KB"), "\(error)")
        }
        // A name of 5 MB makes a header of 5 MB.
        let named = ModelFileTests.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata["name"] = String(repeating: "n", count: 5_000_000)
            json["__metadata__"] = metadata
        }
        #expect(throws: ModelError.self) { try ModelFile(bytes: named) }
        // The largest header allowed is far above a real one.
        let real = ModelFileTests.headerLength()
        #expect(real * 100 < ModelFile.maximumHeaderBytes)
    }

    @Test(arguments: [
        ("name", String(repeating: "n", count: 5_000), "is 5000 characters long, more than 100"),
        ("name", String(repeating: "n", count: 101), "is 101 characters long, more than 100"),
        ("version", String(repeating: "9", count: 101), "is 101 characters long, more than 100"),
        ("name", "coat\nfinder", "holds a control character"),
        ("version", "1\u{1B}[31m", "holds a control character"),
    ])
    func aNameOrVersionThatCannotBeShownIsRefused(key: String, value: String, problem: String) {
        let bytes = ModelFileTests.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata[key] = value
            json["__metadata__"] = metadata
        }
        #expect(throws: ModelError.badMetadata("the model's \(key) \(problem)")) { try ModelFile(bytes: bytes) }
    }

    @Test func aHundredCharactersAreEnough() throws {
        let bytes = ModelFileTests.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata["name"] = String(repeating: "é", count: 100)
            json["__metadata__"] = metadata
        }
        #expect(try ModelFile(bytes: bytes).description.name.count == 100)
    }
}
