import Foundation
import Inference
import Testing
import Training

/// Short real training runs on slices of Fashion-MNIST (from the Debian
/// package dataset-fashion-mnist, which `make deps` installs).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: FashionMNIST.defaultDirectory + "/t10k-images-idx3-ubyte.gz"),
                "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
struct TrainerTests {
    static let tiny = Architecture(name: "tiny", input: FeatureShape(channels: 1, height: 28, width: 28), layers: [
        .conv2d(outputChannels: 4, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
        .maxPool(size: 4), .flatten, .dense(outputs: 16), .relu, .dropout(rate: 0.1), .dense(outputs: 10),
    ])

    static func configuration(seed: UInt64) -> TrainingConfiguration {
        var c = TrainingConfiguration()
        c.epochs = 4
        c.batchSize = 32
        c.seed = seed
        c.peakLearningRate = 0.05
        c.validationCount = 200
        c.trainingLimit = 640
        c.testLimit = 500
        return c
    }

    static func run(seed: UInt64) throws -> Trainer.Result {
        let test = try FashionMNIST(split: .test)
        let train = try FashionMNIST(split: .train)
        return Trainer(architecture: tiny, configuration: configuration(seed: seed)).train(training: train, test: test)
    }

    @Test func lossFallsAndTheModelLearns() throws {
        let result = try Self.run(seed: 1)
        let losses = result.epochs.map(\.loss)
        #expect(losses.count == 4)
        #expect(losses.last! < 0.8 * losses.first!, "losses by epoch: \(losses)")
        // Chance is 0.1; 640 images and 80 steps reach well past it.
        #expect(result.testAccuracy > 0.5)
        #expect(result.validationAccuracy > 0.5)
        #expect(result.trainingImages == 640 && result.validationImages == 200 && result.testImages == 500)
    }

    @Test func sameSeedSameModelOtherSeedOtherModel() throws {
        let a = try Self.run(seed: 5), b = try Self.run(seed: 5), c = try Self.run(seed: 6)
        #expect(a.network.parameters == b.network.parameters)
        #expect(a.network.statistics == b.network.statistics)
        #expect(a.network.parameters != c.network.parameters)
    }
}
