import Foundation
import Inference
import Testing

/// The container: round trips, every kind of damage, and a fuzz over truncations and flipped bytes.
@Suite struct ModelFileTests {
    /// A small valid model (conv, batch norm, relu, pool, flatten, dense) whose file is quick to damage.
    static func tinyModel() -> ModelFile {
        var random = Random(seed: 21)
        var model = ModelBuilder(inputs: [TensorSignature(name: "image", shape: [-1, 1, 28, 28])],
                                 outputs: [TensorSignature(name: "logits", shape: [-1, 10])])
        model.tensors = [
            "c.w": random.array([2, 1, 3, 3]), "c.b": random.array([2]),
            "bn.g": random.array([2]), "bn.b": random.array([2]), "bn.m": random.array([2]),
            "bn.v": NDArray(shape: [2], scalars: [1, 2]),
            "fc.w": random.array([10, 2 * 7 * 7]), "fc.b": random.array([10]),
        ]
        model.layers = [
            Layer(.conv2d(.init(weight: "c.w", bias: "c.b", stride: 2, padding: 1)), name: "c", inputs: ["image"], output: "c"),
            Layer(.batchNorm(.init(gamma: "bn.g", beta: "bn.b", mean: "bn.m", variance: "bn.v", epsilon: 1e-5)),
                  name: "bn", inputs: ["c"], output: "bn"),
            Layer(.relu, name: "r", inputs: ["bn"], output: "r"),
            Layer(.maxPool(.init(kernel: 2)), name: "p", inputs: ["r"], output: "p"),
            Layer(.flatten, name: "f", inputs: ["p"], output: "f"),
            Layer(.dense(.init(weight: "fc.w", bias: "fc.b")), name: "fc", inputs: ["f"], output: "logits"),
        ]
        return model.file
    }

    /// The header's JSON and the data bytes of a serialized file.
    static func split(_ bytes: [UInt8]) -> (json: [String: Any], data: [UInt8]) {
        let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        let json = try! JSONSerialization.jsonObject(with: Data(bytes[8..<8 + length])) as! [String: Any]
        return (json, Array(bytes[(8 + length)...]))
    }

    static func join(_ json: [String: Any], _ data: [UInt8]) -> [UInt8] {
        let header = [UInt8](try! JSONSerialization.data(withJSONObject: json))
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: header.count >> (8 * $0)) }
        bytes += header
        bytes += data
        return bytes
    }

    /// A copy of the tiny file with the header edited.
    static func edited(_ change: (inout [String: Any], inout [UInt8]) -> Void) -> [UInt8] {
        var (json, data) = split(tinyModel().serialized())
        change(&json, &data)
        return join(json, data)
    }

    @Test func roundTripsThroughBytesAndDisk() throws {
        let file = Self.tinyModel()
        let bytes = file.serialized()
        #expect(try ModelFile(bytes: bytes) == file)
        #expect(bytes.count % 4 == 0)
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("tiny.aimodel")
            try file.write(to: url)
            let read = try ModelFile(contentsOf: url)
            #expect(read == file)
            #expect(read.fingerprint == file.fingerprint)
        }
        #expect(throws: ModelError.self) {
            try ModelFile(contentsOf: URL(fileURLWithPath: "/nonexistent/model.aimodel"))
        }
    }

    /// The worked example of docs/model-format.md, byte for byte as Python's safetensors wrote it.
    @Test func readsTheDocumentedExampleWrittenByPython() throws {
        let header = #"{"__metadata__":{"format":"wardrobe.aimodel","format_version":"1","name":"tiny","version":"1","labels":"[\"no\", \"yes\"]","functions":"{\"main\": {\"inputs\": [{\"name\": \"x\", \"shape\": [-1, 2]}], \"outputs\": [{\"name\": \"y\", \"shape\": [-1, 1]}], \"layers\": [{\"op\": \"dense\", \"name\": \"fc\", \"inputs\": [\"x\"], \"output\": \"y\", \"weight\": \"fc.weight\", \"bias\": \"fc.bias\"}]}}","training":"{}"},"fc.bias":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"fc.weight":{"dtype":"F32","shape":[1,2],"data_offsets":[4,12]}}    "#
        let data: [UInt8] = [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0xc0]
        #expect(header.utf8.count == 544)
        let bytes: [UInt8] = [0x20, 0x02, 0, 0, 0, 0, 0, 0] + Array(header.utf8) + data
        #expect(bytes.count == 564)
        let file = try ModelFile(bytes: bytes)
        #expect(file.description.labels == ["no", "yes"])
        #expect(file.tensors["fc.weight"] == NDArray(shape: [1, 2], scalars: [0.5, -2]))
        #expect(throws: ModelError.self) { try CompiledModel(file: file) }   // not the project's contract
        let main = try CompiledModel(file: file, contract: nil).function(named: "main")
        let y = try main.run(inputs: ["x": NDArray(shape: [2, 2], scalars: [2, 1, 1, 0])])["y"]
        #expect(y == NDArray(shape: [2, 1], scalars: [0, 1.5]))
    }

    @Test func headerAndContainerDamage() {
        #expect(throws: ModelError.truncated("5 bytes, the header length alone needs 8")) {
            try ModelFile(bytes: [1, 2, 3, 4, 5])
        }
        #expect(throws: ModelError.truncated("header says 100 bytes of JSON, file has 2 after the length")) {
            try ModelFile(bytes: [100, 0, 0, 0, 0, 0, 0, 0, 0x7b, 0x7d])
        }
        #expect(throws: ModelError.badHeader("invalid JSON (string or '}' expected near 'x')")) {
            try ModelFile(bytes: [3, 0, 0, 0, 0, 0, 0, 0] + Array("{x}".utf8))
        }
        #expect(throws: ModelError.badHeader("not a JSON object")) {
            try ModelFile(bytes: [2, 0, 0, 0, 0, 0, 0, 0] + Array("[]".utf8))
        }
        #expect(throws: ModelError.badMetadata("no __metadata__ map of strings")) {
            try ModelFile(bytes: [2, 0, 0, 0, 0, 0, 0, 0] + Array("{}".utf8))
        }
        #expect(throws: ModelError.self) {
            try ModelFile(bytes: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7b, 0x7d])
        }
        let wrongFormat = Self.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata["format"] = "something-else"
            json["__metadata__"] = metadata
        }
        #expect(throws: ModelError.badMetadata("format is 'something-else', expected 'wardrobe.aimodel'")) {
            try ModelFile(bytes: wrongFormat)
        }
    }

    /// A tensor named twice, each entry with the other's bytes: the data is
    /// covered exactly either way, so only the repeated key tells that two
    /// readers would load different weights. A repeated metadata key too.
    @Test func aKeyNamedTwiceIsRefused() throws {
        let (json, data) = Self.split(Self.tinyModel().serialized())
        func entry(_ name: String) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: json[name]!, options: [.sortedKeys]), as: UTF8.self)
        }
        func withRepeats(_ extra: String, in key: String? = nil) -> [UInt8] {
            var text = String(decoding: try! JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
                              as: UTF8.self)
            if let key {
                let start = text.range(of: "\"\(key)\":{")!.upperBound
                text.insert(contentsOf: extra + ",", at: start)
            } else {
                text.insert(contentsOf: "," + extra, at: text.index(before: text.endIndex))
            }
            let header = Array(text.utf8)
            return (0..<8).map { UInt8(truncatingIfNeeded: header.count >> (8 * $0)) } + header + data
        }
        let swapped = withRepeats("\"bn.b\":\(entry("bn.m")),\"bn.m\":\(entry("bn.b"))")
        let renamed = withRepeats("\"name\":\"other\"", in: "__metadata__")
        for bytes in [swapped, renamed] {
            #expect {
                try ModelFile(bytes: bytes)
            } throws: { error in
                guard case .badHeader(let reason) = error as? ModelError else { return false }
                return reason.hasPrefix("a key is named twice in one object")
            }
        }
    }

    /// The header's values reach the checks as the text wrote them: a whole
    /// number written with a decimal point is still whole, a metadata value
    /// that is not a string is refused, and a name holding an escaped NUL
    /// is not cut short at it.
    @Test func headerValuesAreReadAsWritten() throws {
        func header(replacing old: String, with new: String) throws -> [UInt8] {
            let (json, data) = Self.split(Self.tinyModel().serialized())
            let text = String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
                              as: UTF8.self)
            try #require(text.contains(old))
            let bytes = Array(text.replacingOccurrences(of: old, with: new).utf8)
            return (0..<8).map { UInt8(truncatingIfNeeded: bytes.count >> (8 * $0)) } + bytes + data
        }
        let decimalShape = try header(replacing: "\"shape\":[10]", with: "\"shape\":[10.0]")
        #expect(try ModelFile(bytes: decimalShape) == Self.tinyModel())
        let numericMetadata = try header(replacing: "\"format\":\"wardrobe.aimodel\"", with: "\"format\":1")
        #expect(throws: ModelError.badMetadata("no __metadata__ map of strings")) { try ModelFile(bytes: numericMetadata) }
        let nulInName = try header(replacing: "\"c.b\":", with: "\"c.b\\u0000x\":")
        #expect {
            try ModelFile(bytes: nulInName)
        } throws: { error in
            guard case .badHeader(let reason) = error as? ModelError else { return false }
            return reason.hasPrefix("invalid JSON")
        }
    }

    @Test func tensorDamage() {
        func entry(_ name: String, _ json: [String: Any]) -> [String: Any] { json[name] as! [String: Any] }
        let outside = Self.edited { json, _ in
            var e = entry("fc.w", json); e["data_offsets"] = [0, 1 << 20]; json["fc.w"] = e
        }
        #expect(throws: ModelError.self) { try ModelFile(bytes: outside) }
        let overlapping = Self.edited { json, _ in
            var a = entry("bn.b", json), b = entry("bn.g", json)
            a["data_offsets"] = b["data_offsets"]
            json["bn.b"] = a
        }
        #expect(throws: ModelError.badHeader("tensors 'bn.b' and 'bn.g' overlap")) { try ModelFile(bytes: overlapping) }
        let halfFloat = Self.edited { json, _ in
            var e = entry("c.b", json); e["dtype"] = "F16"; json["c.b"] = e
        }
        #expect(throws: ModelError.badTensor(name: "c.b", reason: "dtype F16, only F32 is supported")) {
            try ModelFile(bytes: halfFloat)
        }
        let badShape = Self.edited { json, _ in
            var e = entry("c.b", json); e["shape"] = [3]; json["c.b"] = e
        }
        #expect(throws: ModelError.badTensor(name: "c.b", reason: "shape [3] needs 12 bytes, offsets give 8")) {
            try ModelFile(bytes: badShape)
        }
        let fractional = Self.edited { json, _ in
            var e = entry("c.b", json); e["shape"] = [2.5]; json["c.b"] = e
        }
        #expect(throws: ModelError.self) { try ModelFile(bytes: fractional) }
        let hole = Self.edited { _, data in data += [0, 0, 0, 0] }
        let error = #expect(throws: ModelError.self) { try ModelFile(bytes: hole) }
        #expect(error?.description.hasSuffix("4 of the \(Self.dataLength() + 4) data bytes belong to no tensor") == true)
    }

    static func dataLength() -> Int { tinyModel().serialized().count - 8 - headerLength() }

    static func headerLength() -> Int {
        let bytes = tinyModel().serialized()
        return Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
    }

    @Test func nonFiniteWeights() {
        for bad in [Float.nan, .infinity, -.infinity] {
            var file = Self.tinyModel()
            file.tensors["fc.w"]!.scalars[7] = bad
            // In memory, the compiler refuses it; on disk, the reader does.
            #expect(throws: ModelError.badTensor(name: "fc.w", reason: "value 7 is \(bad); weights must be finite")) {
                try CompiledModel(file: file)
            }
            #expect(throws: ModelError.badTensor(name: "fc.w", reason: "value 7 is \(bad); weights must be finite")) {
                try ModelFile(bytes: file.serialized())
            }
        }
    }

    @Test func graphDamage() throws {
        func compile(_ change: (inout ModelFile) -> Void) throws {
            var file = Self.tinyModel()
            change(&file)
            _ = try CompiledModel(file: ModelFile(bytes: file.serialized()))
        }
        func editLayers(_ file: inout ModelFile, _ change: (inout [Layer]) -> Void) {
            var function = file.description.functions["main"]!
            change(&function.layers)
            file.description.functions["main"] = function
        }
        #expect(throws: ModelError.missingTensor("fc.w")) { try compile { $0.tensors["fc.w"] = nil } }
        #expect(throws: ModelError.shapeMismatch("tensor 'c.b' of layer 'c' has shape [3], expected [2]")) {
            try compile { $0.tensors["c.b"] = NDArray(shape: [3], scalars: [1, 2, 3]) }
        }
        #expect(throws: ModelError.shapeMismatch("weight 'fc.w' of layer 'fc' has shape [10, 97], expected [out,98]")) {
            try compile { $0.tensors["fc.w"] = NDArray(shape: [10, 97]) }
        }
        #expect(throws: ModelError.badGraph("layer 'fc' reads 'nothing' before anything defines it")) {
            try compile { editLayers(&$0) { $0[5].inputs = ["nothing"] } }
        }
        #expect(throws: ModelError.badGraph("layer 'r' writes 'c', which is already defined")) {
            try compile { editLayers(&$0) { $0[2].output = "c" } }
        }
        #expect(throws: ModelError.noSuchFunction("main")) {
            try compile { file in
                file.description.functions["other"] = file.description.functions["main"]
                file.description.functions["main"] = nil
            }
        }
        #expect(throws: ModelError.shapeMismatch("function 'main' returns 'logits' [N,9]; the contract wants 'logits' [-1, 10]")) {
            try compile { file in
                file.tensors["fc.w"] = NDArray(shape: [9, 98])
                file.tensors["fc.b"] = NDArray(shape: [9])
                var function = file.description.functions["main"]!
                function.outputs = [TensorSignature(name: "logits", shape: [-1, 9])]
                file.description.functions["main"] = function
            }
        }
        #expect(throws: ModelError.badMetadata("the model has 9 labels, the contract wants 10")) {
            try compile { $0.description.labels.removeLast() }
        }
        // An operation this runtime does not know, written into the metadata by hand.
        let unknown = Self.edited { json, _ in
            var metadata = json["__metadata__"] as! [String: String]
            metadata["functions"] = metadata["functions"]!.replacingOccurrences(of: "\"maxpool\"", with: "\"softmax2d\"")
            json["__metadata__"] = metadata
        }
        #expect(throws: ModelError.unknownOperation("softmax2d")) { try ModelFile(bytes: unknown) }
    }

    /// Truncation at every offset of the header and many of the data, and
    /// flipped bytes: each load fails with a ModelError or, for data bytes, loads.
    @Test func fuzzTruncationsAndFlips() throws {
        let bytes = Self.tinyModel().serialized()
        let dataStart = 8 + Self.headerLength()
        var random = Random(seed: 22)
        var offsets = Array(0..<dataStart)
        offsets += (0..<300).map { _ in dataStart + Int(random.next() % UInt64(bytes.count - dataStart)) }
        for length in offsets {
            #expect(throws: ModelError.self, "truncated at \(length)") { try ModelFile(bytes: Array(bytes[..<length])) }
        }
        var headerFailures = 0, dataLoads = 0
        for trial in 0..<3000 {
            var damaged = bytes
            let position = trial < 2000 ? Int(random.next() % UInt64(dataStart)) : dataStart + Int(random.next() % UInt64(bytes.count - dataStart))
            damaged[position] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
            do {
                let file = try ModelFile(bytes: damaged)
                _ = try? CompiledModel(file: file)
                if position >= dataStart { dataLoads += 1 }
            } catch {
                if position < dataStart { headerFailures += 1 }
            }
        }
        #expect(headerFailures > 100)
        #expect(dataLoads > 500, "flipped data bytes should mostly load")
    }
}
