import CInferenceKernels

// dense: x is (N, F); weight is (O, F), PyTorch's order; bias is (O), zeros
// when absent; y = x · weightᵀ + bias is (N, O).
// Lowers to one kernel that may also take the batch norm and the ReLU after
// it, and reads a flattened image in channels-last order by permuting its
// weight's columns, so the flatten before it costs nothing.

extension LayerOperation {
    /// A fully connected layer (PyTorch's `Linear`).
    public struct Dense: Codable, Sendable, Equatable {
        public var weight: String
        public var bias: String?

        public init(weight: String, bias: String? = nil) {
            self.weight = weight
            self.bias = bias
        }
    }
}

extension LayerOperation.Dense: OperationDefinition {
    var name: String { "dense" }
    var tensors: [String] { [weight] + (bias.map { [$0] } ?? []) }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        let x = inputs[0]
        guard case .features(let features) = x else {
            throw .shapeMismatch("layer '\(check.layer.name)' (dense) needs features [N,F], gets \(x); flatten first")
        }
        let matrix = try check.tensor(weight)
        guard matrix.rank == 2, matrix.shape[0] > 0, matrix.shape[1] == features else {
            throw .shapeMismatch("weight '\(weight)' of layer '\(check.layer.name)' has shape \(matrix.shape), expected [out,\(features)]")
        }
        if let bias { try check.tensor(bias, shape: [matrix.shape[0]]) }
        return .features(matrix.shape[0])
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        let weight = graph.tensors[weight]!
        let bias = bias.map { graph.tensors[$0]!.scalars } ?? [Float](repeating: 0, count: weight.shape[0])
        graph.append(DenseKernel(weight: weight.scalars, bias: bias), for: layer)
    }
}

/// A dense layer lowered, with a folded batch norm, a ReLU, and the image
/// whose flatten it reads in channels-last order, if any.
struct DenseKernel: LoweredKernel {
    var weight: [Float], bias: [Float]
    var relu = false
    var channelsLastImage: SampleShape?

    var summary: String { "dense" + (relu ? " +relu" : "") + (channelsLastImage == nil ? "" : " (channels-last columns)") }

    mutating func fuseReLU() -> Bool {
        guard !relu else { return false }
        relu = true
        return true
    }

    mutating func foldAffine(scale: [Float], shift: [Float]) -> Bool {
        guard !relu else { return false }
        LayerOperation.BatchNorm.fold(scale: scale, shift: shift, into: &weight, bias: &bias)
        return true
    }

    var readsFlattenChannelsLast: Bool { true }
    mutating func readFlattenChannelsLast(of image: SampleShape) { channelsLastImage = image }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        let outFeatures = node.shape.channels
        let inFeatures = emission.shape(node.inputs[0]).count
        var weight = weight
        if case .image(let c, let h, let w) = channelsLastImage {
            weight = Self.channelsLastColumns(weight, rows: outFeatures, channels: c, height: h, width: w)
        }
        let conv = emission.arena.packConvolution(
            weight: weight, bias: bias, outChannels: outFeatures, inChannels: inFeatures,
            kernelHeight: 1, kernelWidth: 1, stride: 1, padding: 0, relu: relu, dense: true)
        emission.count(flops: 2 * outFeatures * inFeatures)
        var input = emission.slot(node.inputs[0])
        (input.height, input.width, input.channels) = (1, 1, Int32(inFeatures))
        return DenseStep(conv: conv, input: input, output: emission.slot(node.output))
    }

    /// Reorders a weight's columns from flatten's (c, h, w) order to the
    /// channels-last (h, w, c) order the runtime keeps images in.
    static func channelsLastColumns(_ weight: [Float], rows: Int, channels: Int, height: Int, width: Int) -> [Float] {
        var result = weight
        let columns = channels * height * width
        for row in 0..<rows {
            for c in 0..<channels {
                for h in 0..<height {
                    for w in 0..<width {
                        result[row * columns + (h * width + w) * channels + c] = weight[row * columns + (c * height + h) * width + w]
                    }
                }
            }
        }
        return result
    }
}

/// Calls `ik_dense` on the whole chunk: rows are images.
struct DenseStep: ProgramStep {
    let conv: PackedConvolution
    let input: Program.Slot, output: Program.Slot

    var reusesWeightsAcrossImages: Bool { true }

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        var kernel = conv.kernel(weights)
        ik_dense(&kernel, input.view(workspace, image: image), output.view(workspace, image: image), count)
    }
}
