import Foundation
import Inference
import Testing
import Training

/// The exported file means to the Inference runtime what the network meant to
/// the trainer: the compiled `main` (batch norm folded, its own kernels)
/// gives the trainer's inference-mode logits.
@Suite struct InferenceAgreementTests {
    @Test func compiledMainMatchesTheTrainersForwardPass() throws {
        var network = Network(architecture: .clothing(), seed: 11)
        // Non-trivial batch-norm state, as after training.
        var generator = SeededGenerator(seed: 12)
        network.statistics = network.statistics.enumerated().map { _, v in
            v == 1 ? 0.5 + generator.unitFloat() : 0.2 * generator.normal()
        }
        network.parameters = network.parameters.map { $0 + 0.05 * generator.normal() }
        let count = 6
        let images = (0..<count * 784).map { _ in generator.unitFloat() }
        let expected = network.logits(examples: images)

        let file = network.modelFile(name: "agreement", version: "1", labels: FashionMNIST.labels, training: [:])
        let main = try CompiledModel(file: file).function(named: "main")
        let actual = try #require(try main.run(inputs: ["image": NDArray(shape: [count, 1, 28, 28], scalars: images)])["logits"])
        #expect(actual.shape == [count, 10])
        let scale = expected.map(abs).max()!
        for (a, e) in zip(actual.scalars, expected) {
            #expect(abs(a - e) <= 1e-4 * scale + 1e-5, "compiled \(a), trainer \(e)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: FashionMNIST.defaultDirectory + "/t10k-images-idx3-ubyte.gz"),
                   "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func evaluationThroughCompiledMainCountsEveryImage() throws {
        let test = try FashionMNIST(split: .test)
        let network = Network(architecture: .clothing(), seed: 2)
        let file = network.modelFile(name: "untrained", version: "1", labels: FashionMNIST.labels, training: [:])
        let main = try CompiledModel(file: file).function(named: "main")
        let evaluation = try Evaluation.run(main, on: test, labels: FashionMNIST.labels, limit: 300)
        #expect(evaluation.count == 300)
        #expect(evaluation.confusion.map { $0.reduce(0, +) } == (0..<10).map { c in test.labels.prefix(300).filter { $0 == c }.count })
    }
}
