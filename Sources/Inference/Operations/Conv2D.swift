import CInferenceKernels

// conv2d: x is (N, C, H, W); weight is (O, C, kh, kw), PyTorch's order;
// bias is (O), zeros when absent; stride s (default 1) and zero padding p on
// every side (default 0, less than the kernel);
// y is (N, O, (H + 2p - kh) / s + 1, (W + 2p - kw) / s + 1), rounded down.
// Lowers to one kernel that may also take the batch norm, the ReLU and a
// pooling with window = stride after it.

extension LayerOperation {
    /// A 2-D convolution (PyTorch's `Conv2d` with one group, no dilation).
    public struct Conv2D: Codable, Sendable, Equatable {
        public var weight: String
        public var bias: String?
        /// Optional; when given, the weight's kh and kw must equal it.
        public var kernel: Int?
        public var stride: Int?
        public var padding: Int?

        public init(weight: String, bias: String? = nil, kernel: Int? = nil, stride: Int? = nil, padding: Int? = nil) {
            self.weight = weight
            self.bias = bias
            self.kernel = kernel
            self.stride = stride
            self.padding = padding
        }
    }
}

extension LayerOperation.Conv2D: OperationDefinition {
    var name: String { "conv2d" }
    var tensors: [String] { [weight] + (bias.map { [$0] } ?? []) }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        let x = inputs[0]
        let (c, h, w) = try check.image(x)
        let layer = check.layer.name
        let kernel = try check.tensor(weight)
        guard kernel.rank == 4, kernel.shape[0] > 0, kernel.shape[1] == c, kernel.shape[2] > 0, kernel.shape[3] > 0 else {
            throw .shapeMismatch("weight '\(weight)' of layer '\(layer)' has shape \(kernel.shape), expected [out,\(c),kh,kw]")
        }
        let (outChannels, kh, kw) = (kernel.shape[0], kernel.shape[2], kernel.shape[3])
        if let k = self.kernel, k != kh || k != kw {
            throw .shapeMismatch("layer '\(layer)' says kernel \(k), its weight is \(kh)x\(kw)")
        }
        if let bias { try check.tensor(bias, shape: [outChannels]) }
        let stride = stride ?? 1, padding = padding ?? 0
        guard stride >= 1, stride <= 64, padding >= 0, padding < max(kh, kw) else {
            throw check.invalid("has stride \(stride) and padding \(padding); need stride >= 1 and 0 <= padding < kernel")
        }
        guard h + 2 * padding >= kh, w + 2 * padding >= kw else {
            throw .shapeMismatch("layer '\(layer)' (conv2d): a \(kh)x\(kw) kernel does not fit \(x) with padding \(padding)")
        }
        return .image(channels: outChannels, height: (h + 2 * padding - kh) / stride + 1,
                      width: (w + 2 * padding - kw) / stride + 1)
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        let weight = graph.tensors[weight]!
        let bias = bias.map { graph.tensors[$0]!.scalars } ?? [Float](repeating: 0, count: weight.shape[0])
        graph.append(ConvolutionKernel(weight: weight.scalars, bias: bias, kernelHeight: weight.shape[2],
                                       kernelWidth: weight.shape[3], stride: stride ?? 1, padding: padding ?? 0),
                     for: layer)
    }
}

/// A convolution lowered, with what fused into it: a folded batch norm (in
/// the weights), a ReLU, and a pooling of its output rows while they are in L1.
struct ConvolutionKernel: LoweredKernel {
    struct Pool: Sendable { var max: Bool, size: Int }

    var weight: [Float], bias: [Float]
    let kernelHeight: Int, kernelWidth: Int, stride: Int, padding: Int
    var relu = false
    var pool: Pool?

    var summary: String {
        "conv2d \(kernelHeight)x\(kernelWidth) s\(stride) p\(padding)" + (relu ? " +relu" : "")
            + (pool.map { " +\($0.max ? "max" : "avg")pool\($0.size)" } ?? "")
    }

    var inputBorder: Int { padding }

    mutating func fuseReLU() -> Bool {
        guard !relu, pool == nil else { return false }
        relu = true
        return true
    }

    mutating func foldAffine(scale: [Float], shift: [Float]) -> Bool {
        guard !relu, pool == nil else { return false }
        LayerOperation.BatchNorm.fold(scale: scale, shift: shift, into: &weight, bias: &bias)
        return true
    }

    mutating func fusePool(max: Bool, size: Int, input: SampleShape) -> Bool {
        guard pool == nil, case .image(let channels, _, let width) = input,
              ik_conv2d_pool_scratch(Int32(width), Int32(channels), Int32(size)) <= 8192 else { return false }
        pool = Pool(max: max, size: size)
        return true
    }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        guard case .image(let inChannels, let h, let w) = emission.shape(node.inputs[0]) else { preconditionFailure("checked") }
        let outChannels = node.shape.channels
        let conv = emission.arena.packConvolution(
            weight: weight, bias: bias, outChannels: outChannels, inChannels: inChannels,
            kernelHeight: kernelHeight, kernelWidth: kernelWidth, stride: stride, padding: padding, relu: relu, dense: false)
        let (oh, ow) = ((h + 2 * padding - kernelHeight) / stride + 1, (w + 2 * padding - kernelWidth) / stride + 1)
        emission.count(flops: 2 * outChannels * inChannels * kernelHeight * kernelWidth * oh * ow)
        return ConvolutionStep(conv: conv, pool: pool, input: emission.slot(node.inputs[0]), output: emission.slot(node.output))
    }
}

/// Calls `ik_conv2d`, or `ik_conv2d_pool` when a pooling fused in.
struct ConvolutionStep: ProgramStep {
    let conv: PackedConvolution
    let pool: ConvolutionKernel.Pool?
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        var kernel = conv.kernel(weights)
        if let pool {
            ik_conv2d_pool(&kernel, pool.max ? 1 : 0, Int32(pool.size),
                           input.view(workspace, image: image), output.view(workspace, image: image), count)
        } else {
            ik_conv2d(&kernel, input.view(workspace, image: image), output.view(workspace, image: image), count)
        }
    }
}

/// A convolution or dense layer's packed weights: offsets into the arena and
/// the geometry the C kernels take.
struct PackedConvolution: Sendable {
    var weights: Int, bias: Int
    var inChannels: Int32, outChannels: Int32, kernelHeight: Int32, kernelWidth: Int32
    var blockWidth: Int32, stride: Int32, padding: Int32, relu: Bool, portable: Bool

    func kernel(_ arena: UnsafePointer<Float>) -> ik_conv {
        ik_conv(weights: arena + weights, bias: arena + bias, in_channels: inChannels,
                out_channels: outChannels, kernel_h: kernelHeight, kernel_w: kernelWidth,
                block_width: blockWidth, stride: stride, padding: padding, relu: relu ? 1 : 0,
                portable: portable ? 1 : 0)
    }
}

extension WeightArena {
    /// Packs PyTorch-ordered weights `[out][in][kh][kw]` into the blocks of
    /// output channels the kernels read. A dense layer is a 1x1 convolution.
    mutating func packConvolution(weight: [Float], bias: [Float], outChannels: Int, inChannels: Int,
                                  kernelHeight: Int, kernelWidth: Int, stride: Int, padding: Int,
                                  relu: Bool, dense: Bool) -> PackedConvolution {
        let block = portable ? 16 : ik_preferred_block(Int32(outChannels), dense ? 1 : 0)
        var packed = [Float](repeating: 0, count: ik_packed_weights_count(
            Int32(outChannels), Int32(inChannels), Int32(kernelHeight * kernelWidth), block))
        var packedBias = [Float](repeating: 0, count: ik_packed_bias_count(Int32(outChannels), block))
        ik_pack_conv(weight, bias, Int32(outChannels), Int32(inChannels), Int32(kernelHeight),
                     Int32(kernelWidth), block, &packed, &packedBias)
        return PackedConvolution(
            weights: append(packed), bias: append(packedBias), inChannels: Int32(inChannels),
            outChannels: Int32(outChannels), kernelHeight: Int32(kernelHeight), kernelWidth: Int32(kernelWidth),
            blockWidth: block, stride: Int32(stride), padding: Int32(padding), relu: relu, portable: portable)
    }
}
