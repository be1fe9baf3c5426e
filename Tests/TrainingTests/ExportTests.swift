import Foundation
import Inference
import Testing
import Training

/// The exported `.aimodel`: layer graph, tensor names and PyTorch layouts.
@Suite struct ExportTests {
    @Test func clothingArchitectureSize() {
        let architecture = Architecture.clothing()
        // conv 1*32*9 + 32*32*9 + 32*64*9 + 64*64*9, bn 2*(32+32+64+64),
        // dense 3136*128 + 128, 128*10 + 10.
        #expect(architecture.parameterCount == 288 + 9216 + 18432 + 36864 + 384 + 401_536 + 1290)
        #expect(architecture.parameterCount <= 1_000_000)
        #expect(architecture.outputCount == 10)
    }

    @Test func modelFileDescribesTheGraphAndRoundTrips() throws {
        let network = Network(architecture: .clothing(), seed: 3)
        let model = network.modelFile(name: "clothing", version: "test", labels: FashionMNIST.labels,
                                      training: ["seed": "3"])
        let main = try #require(model.description.functions["main"])
        #expect(main.inputs == [TensorSignature(name: "image", shape: [-1, 1, 28, 28])])
        #expect(main.outputs == [TensorSignature(name: "logits", shape: [-1, 10])])
        #expect(main.layers.map(\.op) == ["conv2d", "batchnorm", "relu", "conv2d", "batchnorm", "relu", "maxpool",
                                          "conv2d", "batchnorm", "relu", "conv2d", "batchnorm", "relu", "maxpool",
                                          "flatten", "dense", "relu", "dropout", "dense"])
        #expect(main.layers.first?.inputs == ["image"])
        #expect(main.layers.last?.output == "logits")
        // Each layer reads the one before it.
        for (previous, layer) in zip(main.layers, main.layers.dropFirst()) {
            #expect(layer.inputs == [previous.output])
        }
        #expect(model.tensors["conv2.weight"]?.shape == [32, 32, 3, 3])
        #expect(model.tensors["conv1.bias"] == nil)
        #expect(model.tensors["bn4.running_var"]?.shape == [64])
        #expect(model.tensors["fc1.weight"]?.shape == [128, 3136])
        #expect(model.tensors["fc2.bias"]?.shape == [10])
        let count = model.tensors.filter { !$0.key.hasPrefix("bn") || !$0.key.contains("running") }
            .values.reduce(0) { $0 + $1.count }
        #expect(count == network.parameterCount)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("m.aimodel")
        try model.write(to: url)
        #expect(try ModelFile(contentsOf: url) == model)
    }

    @Test func evaluationCountsConfusions() {
        let e = Evaluation(labels: ["a", "b", "c"], actual: [0, 0, 1, 2, 2, 2], predicted: [0, 1, 1, 2, 2, 0])
        #expect(e.confusion == [[1, 1, 0], [0, 1, 0], [1, 0, 2]])
        #expect(e.correct == 4 && e.count == 6)
        #expect(abs(e.accuracy - 4.0 / 6) < 1e-12)
        #expect(e.perClassAccuracy == [0.5, 1, 2.0 / 3])
    }
}
