import Foundation
import Inference
import Testing
import Training

/// Learning from photo tensors: the loss that accepts several labels, the
/// augmentation, fine-tuning from a model file, and calibration.
@Suite struct PhotoLearningTests {
    static let small = Architecture(name: "small", input: FeatureShape(channels: 4, height: 1, width: 1),
                                    layers: [.flatten, .dense(outputs: 6)])

    /// Analytic gradients of the multi-label loss against central differences,
    /// with and without label smoothing.
    @Test(arguments: [Float(0), 0.1])
    func multiLabelLossGradientsMatchFiniteDifferences(smoothing: Float) {
        var network = Network(architecture: Self.small, seed: 3)
        var generator = SeededGenerator(seed: 4)
        network.parameters = network.parameters.map { _ in 0.7 * generator.normal() }
        let examples = (0..<12).map { _ in generator.normal() }
        let accepted = [[1, 3, 5], [0], [2, 4]]
        let analytic = network.gradients(examples: examples, accepted: accepted, labelSmoothing: smoothing)
        let h: Float = 1e-2
        for i in network.parameters.indices {
            var plus = network, minus = network
            plus.parameters[i] += h
            minus.parameters[i] -= h
            let numeric = Float((plus.loss(examples: examples, accepted: accepted, labelSmoothing: smoothing)
                - minus.loss(examples: examples, accepted: accepted, labelSmoothing: smoothing)) / Double(2 * h))
            #expect(abs(analytic.parameters[i] - numeric) <= 1e-3 + 3e-2 * abs(numeric),
                    "parameter \(i): analytic \(analytic.parameters[i]), numeric \(numeric)")
        }
        #expect(analytic.parameters.contains { abs($0) > 1e-2 })
    }

    /// A network whose logits are its input: one dense layer, identity weights, zero bias.
    static func identity(_ classes: Int) -> Network {
        var network = Network(architecture: Architecture(name: "identity", input: FeatureShape(channels: classes, height: 1, width: 1),
                                                         layers: [.flatten, .dense(outputs: classes)]), seed: 1)
        network.parameters = (0..<classes * classes).map { $0 % (classes + 1) == 0 ? 1 : 0 } + [Float](repeating: 0, count: classes)
        return network
    }

    /// The loss is -log of the accepted labels' summed probability.
    @Test func lossIsMinusLogOfTheAcceptedProbability() {
        let logits: [Float] = [1, 2, 0.5, -1]
        let loss = Self.identity(4).loss(examples: logits, accepted: [[0, 2]])
        let e = logits.map { exp(Double($0)) }
        #expect(abs(loss - -log((e[0] + e[2]) / e.reduce(0, +))) < 1e-5)
        let single = Self.identity(4).loss(examples: logits, labels: [1])
        #expect(abs(single - -log(e[1] / e.reduce(0, +))) < 1e-5)
    }

    /// With several accepted labels the model is not pushed to choose between
    /// them: once they hold nearly all the probability the gradient vanishes,
    /// however that probability is split, where forcing one of them would keep
    /// pulling (so a sneaker need not become a sandal to be right).
    @Test func acceptedLabelsAreNotForcedApart() {
        let logits: [Float] = [-3, 4, -3, 3.6, -3, -4]   // labels 1 and 3 hold 0.999 between them
        let network = Self.identity(6)
        let multi = network.gradients(examples: logits, accepted: [[1, 3]]).input
        let forced = network.gradients(examples: logits, labels: [1]).input
        let norm = { (g: [Float]) in g.map { $0 * $0 }.reduce(0, +).squareRoot() }
        #expect(norm(multi) < 0.01, "multi-label gradient \(multi)")
        #expect(norm(forced) > 0.4, "forcing label 1 pulls 3 down: \(forced)")
        // On the accepted labels the gradient is proportional to each one's probability.
        let p = Self.softmax(logits)
        #expect(abs(multi[1] / multi[3] - p[1] / p[3]) < 1e-2 * p[1] / p[3])
    }

    @Test func foldingATemperatureDividesTheLogits() {
        var network = Network(architecture: Self.small, seed: 9)
        let examples: [Float] = [0.3, -0.2, 0.8, 0.1]
        let before = network.logits(examples: examples)
        network.foldTemperature(2.5)
        let after = network.logits(examples: examples)
        for (a, b) in zip(after, before) { #expect(abs(a - b / 2.5) < 1e-5) }
    }

    /// Labels drawn from softmax(z) with logits 3z: the fitted temperature is near 3.
    @Test func temperatureFitRecoversAKnownTemperature() {
        var generator = SeededGenerator(seed: 11)
        var logits: [Float] = []
        var examples = LabelledTensors()
        for _ in 0..<3000 {
            let z = (0..<10).map { _ in 1.5 * generator.normal() }
            let p = Self.softmax(z)
            var u = generator.unitFloat(), label = 9
            for k in 0..<10 { u -= p[k]; if u < 0 { label = k; break } }
            logits += z.map { 3 * $0 }
            examples.append([Float](repeating: 0, count: 784), accepted: [label])
        }
        let t = TemperatureScaling.fit(logits: logits, examples: examples)
        #expect(abs(t - 3) < 0.25, "fitted \(t)")
        #expect(TemperatureScaling.loss(logits: logits, examples: examples, temperature: t)
            < TemperatureScaling.loss(logits: logits, examples: examples, temperature: 1))
    }

    /// Seven held-out photos, all right and sure: without the prior the best T is
    /// the search's lower bound (a fine-tune on 40 corrections was sharpened to T = 0.121 this
    /// way, and then called 97% of the validation photos at 0.8 or more); with it,
    /// T stays near 1.
    @Test func aFewHeldOutPhotosAllRightDoNotSharpenTheModel() {
        var logits: [Float] = []
        var examples = LabelledTensors()
        for i in 0..<7 {
            logits += (0..<10).map { $0 == i ? 6 : 0 }
            examples.append([Float](repeating: 0, count: 784), accepted: [i])
        }
        #expect(TemperatureScaling.loss(logits: logits, examples: examples, temperature: 0.05)
            < TemperatureScaling.loss(logits: logits, examples: examples, temperature: 1),
            "the examples alone would sharpen the model")
        let t = TemperatureScaling.fit(logits: logits, examples: examples)
        #expect(t > 0.7 && t <= 1, "fitted \(t)")
    }

    @Test func aReportWithNoSureExampleSaysSo() {
        let report = CalibrationReport(confidences: [0.5, 0.3], correct: [true, false])
        #expect(report.confidentPrecision == nil)
        #expect(report.summary == "ECE 0.4000 (15 bins); confidence >= 0.8 on 0.000 of them, none that sure")
    }

    @Test func calibrationReportByHand() {
        // Bins of 1/15: 0.95 and 0.97 share the last bin (mean 0.96, 1 of 2 right: gap 0.46);
        // 0.5 alone (right: gap 0.5); 0.1 alone (wrong: gap 0.1).
        let report = CalibrationReport(confidences: [0.95, 0.97, 0.5, 0.1], correct: [true, false, true, false])
        #expect(abs(report.expectedCalibrationError - (2 * 0.46 + 0.5 + 0.1) / 4) < 1e-9)
        #expect(report.confidentCoverage == 0.5)
        #expect(report.confidentPrecision == 0.5)
    }

    @Test func augmentationNoneCopiesAndFlipMirrors() {
        let source = (0..<784).map { Float($0 % 28) / 27 }
        var out = [Float](repeating: -1, count: 784)
        var generator = SeededGenerator(seed: 1)
        source.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { PhotoAugmentation.none.apply(s.baseAddress!, into: $0.baseAddress!, generator: &generator) }
        }
        #expect(out == source)
        let flipOnly = PhotoAugmentation(horizontalFlip: true, maxShift: 0, maxScale: 0, maxRotation: 0, maxGain: 0)
        var flipped = 0
        for _ in 0..<20 {
            source.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { flipOnly.apply(s.baseAddress!, into: $0.baseAddress!, generator: &generator) }
            }
            if out == source { continue }
            #expect(out[0] == source[27] && out[27] == source[0])
            flipped += 1
        }
        #expect(flipped > 0 && flipped < 20, "about half the draws flip: \(flipped)")
    }

    /// Exporting and reading back gives the same network, and a model of another
    /// architecture is refused with the tensor it lacks.
    @Test func networkReadsBackFromItsModelFile() throws {
        var network = Network(architecture: TrainerTests.tiny, seed: 2)
        network.statistics = network.statistics.enumerated().map { Float($0.offset % 7) * 0.1 + 0.5 }
        let file = network.modelFile(name: "t", version: "1", labels: FashionMNIST.labels, training: [:])
        let back = try Network(architecture: TrainerTests.tiny, modelFile: file)
        #expect(back.parameters == network.parameters)
        #expect(back.statistics == network.statistics)
        #expect(throws: TrainingError.self) { try Network(architecture: .clothing(), modelFile: file) }
    }

    /// A model whose tensors fit the architecture but whose graph computes something else was
    /// fine-tuned as the architecture: a parent pooling by average became a model pooling by
    /// maximum, and its test accuracy 'rose' from 0.8255 to 0.9395 at a learning rate of 1e-6.
    /// Another operation, other parameters (a batch norm's epsilon) or another wiring is refused,
    /// naming the layer; names and dropout, which only training does, are free.
    @Test func aModelWhoseGraphDiffersIsNotReadAsTheArchitecture() throws {
        let network = Network(architecture: TrainerTests.tiny, seed: 3)
        let file = network.modelFile(name: "t", version: "1", labels: FashionMNIST.labels, training: [:])
        func edited(_ change: (inout [Layer]) -> Void) -> ModelFile {
            var copy = file
            change(&copy.description.functions["main"]!.layers)
            return copy
        }
        let pool = edited { layers in
            guard case .maxPool(let pooling) = layers[3].operation else { return }
            layers[3].operation = .avgPool(pooling)
        }
        #expect(throws: TrainingError.incompatibleModel("its layer 4 ('pool1') is avgpool where the architecture tiny has maxpool")) {
            try Network(architecture: TrainerTests.tiny, modelFile: pool)
        }
        let epsilon = edited { layers in
            guard case .batchNorm(var norm) = layers[1].operation else { return }
            norm.epsilon = 1e-3
            layers[1].operation = .batchNorm(norm)
        }
        #expect(throws: TrainingError.incompatibleModel("its layer 2 ('bn1', batchnorm) has other parameters than the architecture tiny's")) {
            try Network(architecture: TrainerTests.tiny, modelFile: epsilon)
        }
        let skipped = edited { layers in layers[2].inputs = [Network.inputName] }
        #expect(throws: TrainingError.incompatibleModel("its main function is not one chain of layers from its input to its output, "
                                                        + "as the architecture tiny is")) {
            try Network(architecture: TrainerTests.tiny, modelFile: skipped)
        }
        let renamed = edited { layers in
            layers.removeAll { if case .dropout = $0.operation { true } else { false } }
            var previous = Network.inputName
            for i in layers.indices {
                layers[i].name = "layer\(i)"
                layers[i].inputs = [previous]
                if i < layers.count - 1 { layers[i].output = "value\(i)" }
                previous = layers[i].output
            }
        }
        #expect(try Network(architecture: TrainerTests.tiny, modelFile: renamed).parameters == network.parameters)
    }

    static func softmax(_ z: [Float]) -> [Float] {
        let top = z.max()!
        let e = z.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}
