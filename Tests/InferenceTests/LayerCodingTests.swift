import Foundation
import Inference
import Testing

/// Every operation's layer reads back as written, under the name and fields
/// docs/model-format.md gives it: the one list of operations and each
/// operation's parameters agree.
@Suite struct LayerCodingTests {
    static let layers: [(Layer, String)] = [
        (Layer(.conv2d(.init(weight: "w", bias: "b", stride: 2, padding: 1)), name: "c", inputs: ["x"], output: "y"),
         #"{"bias":"b","inputs":["x"],"name":"c","op":"conv2d","output":"y","padding":1,"stride":2,"weight":"w"}"#),
        (Layer(.batchNorm(.init(gamma: "g", mean: "m", variance: "v", epsilon: 0.5)), name: "bn", inputs: ["x"], output: "y"),
         #"{"epsilon":0.5,"gamma":"g","inputs":["x"],"mean":"m","name":"bn","op":"batchnorm","output":"y","variance":"v"}"#),
        (Layer(.relu, name: "r", inputs: ["x"], output: "y"), #"{"inputs":["x"],"name":"r","op":"relu","output":"y"}"#),
        (Layer(.maxPool(.init(kernel: 2)), name: "p", inputs: ["x"], output: "y"),
         #"{"inputs":["x"],"kernel":2,"name":"p","op":"maxpool","output":"y"}"#),
        (Layer(.avgPool(.init(kernel: 3, stride: 1, padding: 1)), name: "p", inputs: ["x"], output: "y"),
         #"{"inputs":["x"],"kernel":3,"name":"p","op":"avgpool","output":"y","padding":1,"stride":1}"#),
        (Layer(.globalAvgPool, name: "g", inputs: ["x"], output: "y"),
         #"{"inputs":["x"],"name":"g","op":"globalavgpool","output":"y"}"#),
        (Layer(.flatten, name: "f", inputs: ["x"], output: "y"), #"{"inputs":["x"],"name":"f","op":"flatten","output":"y"}"#),
        (Layer(.dense(.init(weight: "w")), name: "d", inputs: ["x"], output: "y"),
         #"{"inputs":["x"],"name":"d","op":"dense","output":"y","weight":"w"}"#),
        (Layer(.dropout(.init(rate: 0.25)), name: "d", inputs: ["x"], output: "y"),
         #"{"inputs":["x"],"name":"d","op":"dropout","output":"y","rate":0.25}"#),
        (Layer(.add, name: "a", inputs: ["x", "z"], output: "y"), #"{"inputs":["x","z"],"name":"a","op":"add","output":"y"}"#),
    ]

    @Test(arguments: 0..<layers.count) func writesTheDocumentedFieldsAndReadsThemBack(index: Int) throws {
        let (layer, json) = Self.layers[index]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(layer), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(Layer.self, from: Data(json.utf8)) == layer)
    }

    @Test func tensorsAndLearnedTensorsNameTheWeights() {
        let norm = LayerOperation.batchNorm(.init(gamma: "g", beta: "b", mean: "m", variance: "v"))
        #expect(Set(norm.tensors) == ["g", "b", "m", "v"])
        #expect(Set(norm.learnedTensors) == ["g", "b"], "running statistics are measured, not learned")
        #expect(LayerOperation.conv2d(.init(weight: "w")).tensors == ["w"])
        #expect(LayerOperation.relu.tensors.isEmpty)
    }

    @Test func aLayerMissingARequiredFieldIsRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Layer.self, from: Data(#"{"inputs":["x"],"name":"c","op":"conv2d","output":"y"}"#.utf8))
        }
    }
}
