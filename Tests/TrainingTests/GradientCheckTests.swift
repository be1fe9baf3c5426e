import Testing
import Training

/// Every operation's backward pass against central finite differences of the
/// loss (softmax cross-entropy), on shapes small enough to perturb every
/// parameter and every input value.
///
/// Tolerance: in float32 with step h = 1e-2, each analytic gradient must be
/// within 1e-3 + 3e-2 * |numeric| of the numeric one. Inputs are kept at
/// least 0.05 from ReLU's kink and max-pool ties are impossible by
/// construction, so no perturbation crosses a non-differentiable point.
@Suite struct GradientCheckTests {
    static let h: Float = 1e-2

    /// Values spread in [-1, 1] with magnitudes of at least 0.05 and no two closer than 0.02.
    static func distinctValues(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        var levels = (0..<count).map { i in Float(i) * 0.02 + 0.05 }
        generator.shuffle(&levels)
        let scale = 1 / (Float(count) * 0.02 + 0.05)
        return levels.enumerated().map { i, v in (i % 2 == 0 ? v : -v) * scale * 1.5 }
    }

    @discardableResult
    func check(_ layers: [LayerSpec], input: FeatureShape, batch: Int = 2, seed: UInt64 = 7,
               smoothing: Float = 0, randomiseParameters: Bool = true, fixedNormalization: Bool = false,
               heldFixed: Range<Int> = 0..<0) -> Network.Gradients {
        let architecture = Architecture(name: "check", input: input, layers: layers)
        var network = Network(architecture: architecture, seed: seed)
        var generator = SeededGenerator(seed: seed &+ 1)
        if randomiseParameters {
            network.parameters = network.parameters.map { _ in 0.5 * generator.normal() }
        }
        if fixedNormalization {
            // Running statistics unlike any batch's, all at least 0.5 (variances must be positive).
            network.statistics = network.statistics.map { _ in abs(0.3 + 0.2 * generator.normal()) + 0.5 }
        }
        let examples = Self.distinctValues(batch * input.count, seed: seed &+ 2)
        let labels = (0..<batch).map { _ in generator.below(network.outputCount) }
        let analytic = network.gradients(examples: examples, labels: labels, dropoutSeed: 3, labelSmoothing: smoothing,
                                         fixedNormalization: fixedNormalization)

        func numeric(_ perturbed: (Float) -> Double) -> Float {
            Float((perturbed(Self.h) - perturbed(-Self.h)) / Double(2 * Self.h))
        }
        var worst: Float = 0
        for i in network.parameters.indices where !heldFixed.contains(i) {
            let n = numeric { delta in
                var copy = network
                copy.parameters[i] += delta
                return copy.loss(examples: examples, labels: labels, dropoutSeed: 3, labelSmoothing: smoothing,
                                 fixedNormalization: fixedNormalization)
            }
            let a = analytic.parameters[i]
            worst = max(worst, abs(a - n))
            #expect(abs(a - n) <= 1e-3 + 3e-2 * abs(n), "parameter \(i): analytic \(a), numeric \(n)")
        }
        for i in examples.indices {
            let n = numeric { delta in
                var copy = examples
                copy[i] += delta
                return network.loss(examples: copy, labels: labels, dropoutSeed: 3, labelSmoothing: smoothing,
                                    fixedNormalization: fixedNormalization)
            }
            let a = analytic.input[i]
            worst = max(worst, abs(a - n))
            #expect(abs(a - n) <= 1e-3 + 3e-2 * abs(n), "input \(i): analytic \(a), numeric \(n)")
        }
        // Guard against a vacuous pass: the gradients must not all be zero.
        #expect(analytic.parameters.contains { abs($0) > 1e-3 } || analytic.input.contains { abs($0) > 1e-3 })
        return analytic
    }

    @Test func convolutionWithPaddingAndBias() {
        check([.conv2d(outputChannels: 3, kernel: 3, padding: 1, bias: true), .flatten],
              input: FeatureShape(channels: 2, height: 5, width: 4))
    }

    @Test func convolutionWithoutPadding() {
        check([.conv2d(outputChannels: 2, kernel: 2, padding: 0, bias: false), .flatten],
              input: FeatureShape(channels: 3, height: 4, width: 5))
    }

    @Test func batchNorm() {
        check([.batchNorm(epsilon: 1e-5), .flatten], input: FeatureShape(channels: 3, height: 3, width: 3), batch: 3)
    }

    /// A fine-tune that keeps batch norm fixed normalises by the running
    /// statistics: gradients flow through it as through a fixed scale and
    /// shift, and its own scale and shift learn nothing.
    /// (No ReLU: running statistics unlike the batch's would put
    /// activations at its kink, where finite differences mean nothing.)
    @Test func batchNormKeptFixed() {
        // conv 2x1x3x3 = 18 weights, then the batch norm's 2 scales and 2 shifts, held fixed.
        let gradients = check([.conv2d(outputChannels: 2, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5),
                               .flatten, .dense(outputs: 3)],
                              input: FeatureShape(channels: 1, height: 3, width: 3), batch: 3, fixedNormalization: true,
                              heldFixed: 18..<22)
        #expect(gradients.parameters[18..<22].allSatisfy { $0 == 0 })
        #expect(gradients.parameters[0..<18].contains { abs($0) > 1e-3 })
    }

    @Test func relu() {
        check([.relu, .flatten], input: FeatureShape(channels: 2, height: 3, width: 3))
    }

    @Test func maxPool() {
        check([.maxPool(size: 2), .flatten], input: FeatureShape(channels: 2, height: 4, width: 5))
    }

    @Test func flattenAndDense() {
        check([.flatten, .dense(outputs: 4)], input: FeatureShape(channels: 3, height: 2, width: 2), batch: 3)
    }

    @Test func dropout() {
        check([.flatten, .dropout(rate: 0.5), .dense(outputs: 3)], input: FeatureShape(channels: 8, height: 1, width: 1))
    }

    @Test func softmaxCrossEntropyWithLabelSmoothing() {
        check([.flatten, .dense(outputs: 5)], input: FeatureShape(channels: 4, height: 1, width: 1), smoothing: 0.1)
    }

    /// The bundled architecture's chain of operations at toy size.
    @Test func wholeNetwork() {
        check([.conv2d(outputChannels: 2, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
               .maxPool(size: 2), .flatten, .dense(outputs: 4), .relu, .dropout(rate: 0.25), .dense(outputs: 3)],
              input: FeatureShape(channels: 1, height: 4, width: 4), batch: 3, randomiseParameters: false)
    }
}
