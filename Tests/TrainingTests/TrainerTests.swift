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

/// Photos beside Fashion-MNIST, and fine-tuning (test images stand in for
/// prepared photos, some accepting two labels).
extension TrainerTests {
    static func photos(_ range: Range<Int>, from data: FashionMNIST) -> LabelledTensors {
        var photos = LabelledTensors()
        for i in range {
            let label = Int(data.labels[i])
            let tensor = data.image(i).map { Float($0) / 255 }
            // Shoes accept all three shoe labels, as the shoes folder does.
            photos.append(tensor, accepted: [5, 7, 9].contains(label) ? [5, 7, 9] : [label])
        }
        return photos
    }

    @Test func photosAreLearnedValidatedAndReproducible() throws {
        let test = try FashionMNIST(split: .test), train = try FashionMNIST(split: .train)
        var c = Self.configuration(seed: 3)
        c.photoShare = 0.5
        let photos = Self.photos(0..<300, from: test), heldOut = Self.photos(300..<500, from: test)
        let trainer = Trainer(architecture: Self.tiny, configuration: c)
        let a = trainer.train(training: train, test: test, photos: photos, heldOutPhotos: heldOut)
        let b = trainer.train(training: train, test: test, photos: photos, heldOutPhotos: heldOut)
        #expect(a.network.parameters == b.network.parameters)
        #expect(a.epochs.allSatisfy { $0.photoValidationAccuracy != nil })
        #expect((a.photoValidationAccuracy ?? 0) > 0.5, "held-out photos: \(a.photoValidationAccuracy ?? 0)")
        // Half of each epoch is photos: 640 Fashion-MNIST images and 640 photo draws.
        #expect(a.epochs[0].imagesPerSecond > 0 && a.trainingPhotos == 300 && a.heldOutPhotos == 200)
    }

    /// Fine-tuning starts where the parent ended: after one epoch at a small
    /// rate it is still as good as the parent, unlike a fresh network.
    @Test func fineTuningStartsFromTheParent() throws {
        let test = try FashionMNIST(split: .test), train = try FashionMNIST(split: .train)
        let parent = try Self.run(seed: 1)
        var c = Self.configuration(seed: 2)
        c.epochs = 1
        c.peakLearningRate = 0.002
        c.trainingLimit = 64
        let tuned = Trainer(architecture: Self.tiny, configuration: c).train(training: train, test: test, parent: parent.network)
        let fresh = Trainer(architecture: Self.tiny, configuration: c).train(training: train, test: test)
        #expect(tuned.fineTuned && !fresh.fineTuned)
        #expect(tuned.testAccuracy > parent.testAccuracy - 0.05, "tuned \(tuned.testAccuracy), parent \(parent.testAccuracy)")
        #expect(tuned.testAccuracy > fresh.testAccuracy + 0.2)
    }

    /// A fine-tune that keeps batch norm fixed leaves its running statistics,
    /// scale and shift as the parent's, bit for bit, while the weights learn.
    @Test func fixedNormalizationKeepsTheParentsBatchNorm() throws {
        let test = try FashionMNIST(split: .test), train = try FashionMNIST(split: .train)
        let parent = try Self.run(seed: 1)
        var c = Self.configuration(seed: 2)
        c.epochs = 1
        c.trainingLimit = 128
        c.fixedNormalization = true
        let tuned = Trainer(architecture: Self.tiny, configuration: c).train(training: train, test: test, parent: parent.network)
        // tiny: conv 4x1x3x3 = 36 weights, then the batch norm's 4 scales and 4 shifts.
        let normalization = 36..<44
        #expect(tuned.network.statistics == parent.network.statistics)
        #expect(tuned.network.parameters[normalization] == parent.network.parameters[normalization])
        #expect(tuned.network.parameters[..<36] != parent.network.parameters[..<36])
        #expect(tuned.network.parameters[44...] != parent.network.parameters[44...])
    }
}
