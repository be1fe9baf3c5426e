import CInferenceKernels

// batchnorm: x is (N, C, H, W) or (N, C); mean and variance are (C); gamma
// (default ones) and beta (default zeros) are (C); epsilon defaults to 1e-5;
// y = (x - mean) / sqrt(variance + epsilon) * gamma + beta, the shape of x.
// Lowers to `y = x * scale + shift`, folded into the convolution or dense
// layer before it when nothing else reads that layer's output, else a step of
// its own.

extension LayerOperation {
    /// Batch normalisation at inference, with running statistics.
    public struct BatchNorm: Codable, Sendable, Equatable {
        public var mean: String
        public var variance: String
        public var gamma: String?
        public var beta: String?
        public var epsilon: Float?

        public init(gamma: String? = nil, beta: String? = nil, mean: String, variance: String, epsilon: Float? = nil) {
            self.mean = mean
            self.variance = variance
            self.gamma = gamma
            self.beta = beta
            self.epsilon = epsilon
        }
    }
}

extension LayerOperation.BatchNorm: OperationDefinition {
    var name: String { "batchnorm" }
    var tensors: [String] { [gamma, beta].compactMap { $0 } + [mean, variance] }
    /// The running statistics are measured, not learned.
    var learnedTensors: [String] { [gamma, beta].compactMap { $0 } }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        let channels = inputs[0].channels
        try check.tensor(mean, shape: [channels])
        let variance = try check.tensor(self.variance, shape: [channels])
        for key in [gamma, beta].compactMap({ $0 }) { try check.tensor(key, shape: [channels]) }
        let epsilon = epsilon ?? 1e-5
        guard epsilon.isFinite, epsilon >= 0 else { throw check.invalid("has epsilon \(epsilon)") }
        if let bad = variance.scalars.first(where: { $0 + epsilon <= 0 }) {
            throw .badTensor(name: self.variance, reason: "variance \(bad) plus epsilon \(epsilon) is not positive")
        }
        return inputs[0]
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        let (scale, shift) = affine(graph.tensors)
        if graph.fuse(layer, { $0.foldAffine(scale: scale, shift: shift) }) { return }
        graph.append(AffineKernel(scale: scale, shift: shift), for: layer)
    }

    /// The layer as `y = x * scale + shift` per channel, computed in double.
    func affine(_ tensors: [String: NDArray]) -> (scale: [Float], shift: [Float]) {
        let mean = tensors[mean]!.scalars
        let variance = tensors[variance]!.scalars
        let gamma = gamma.map { tensors[$0]!.scalars } ?? [Float](repeating: 1, count: mean.count)
        let beta = beta.map { tensors[$0]!.scalars } ?? [Float](repeating: 0, count: mean.count)
        let epsilon = Double(epsilon ?? 1e-5)
        var scale = [Float](repeating: 0, count: mean.count)
        var shift = scale
        for c in mean.indices {
            let s = Double(gamma[c]) / (Double(variance[c]) + epsilon).squareRoot()
            scale[c] = Float(s)
            shift[c] = Float(Double(beta[c]) - Double(mean[c]) * s)
        }
        return (scale, shift)
    }

    /// Folds a per-output-channel affine into a layer's weights `[out][...]`
    /// and bias: each output channel's weights scaled, its bias mapped.
    static func fold(scale: [Float], shift: [Float], into weight: inout [Float], bias: inout [Float]) {
        let perOutput = weight.count / scale.count
        for o in scale.indices {
            for i in o * perOutput..<(o + 1) * perOutput { weight[i] *= scale[o] }
            bias[o] = bias[o] * scale[o] + shift[o]
        }
    }
}

/// A batch norm that could not fold: a per-channel affine, maybe with a ReLU.
struct AffineKernel: LoweredKernel {
    let scale: [Float], shift: [Float]
    var relu = false

    var summary: String { "affine" + (relu ? " +relu" : "") }

    mutating func fuseReLU() -> Bool {
        guard !relu else { return false }
        relu = true
        return true
    }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        AffineStep(scale: emission.arena.append(scale), shift: emission.arena.append(shift), relu: relu,
                   input: emission.slot(node.inputs[0]), output: emission.slot(node.output))
    }
}

/// Calls `ik_affine`.
struct AffineStep: ProgramStep {
    let scale: Int, shift: Int
    let relu: Bool
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        ik_affine(input.view(workspace, image: image), output.view(workspace, image: image), count,
                  weights + scale, weights + shift, relu ? 1 : 0)
    }
}
