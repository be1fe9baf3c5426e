import CInferenceKernels

// maxpool, avgpool: x is (N, C, H, W); a square window k, stride s (default
// k), zero padding p on every side (default 0, at most k / 2; padding never
// wins a max); y is (N, C, (H + 2p - k) / s + 1, (W + 2p - k) / s + 1),
// rounded down. The average always divides by k² (PyTorch's
// count_include_pad=True).
// With window = stride and no padding it lowers into the convolution before
// it, which pools its rows while they are in L1; else a step of its own.

extension LayerOperation {
    /// The parameters of `maxpool` and `avgpool`.
    public struct Pooling: Codable, Sendable, Equatable {
        public var kernel: Int
        public var stride: Int?
        public var padding: Int?

        public init(kernel: Int, stride: Int? = nil, padding: Int? = nil) {
            self.kernel = kernel
            self.stride = stride
            self.padding = padding
        }
    }
}

/// The rules of `maxpool` (`max`) and `avgpool`.
struct PoolingDefinition: OperationDefinition {
    let parameters: LayerOperation.Pooling
    let max: Bool

    var name: String { max ? "maxpool" : "avgpool" }
    var kernel: Int { parameters.kernel }
    var stride: Int { parameters.stride ?? parameters.kernel }
    var padding: Int { parameters.padding ?? 0 }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        let x = inputs[0]
        let (c, h, w) = try check.image(x)
        guard kernel >= 1 else { throw check.invalid("needs a kernel >= 1") }
        guard stride >= 1, padding >= 0, 2 * padding <= kernel else {
            throw check.invalid("has stride \(stride) and padding \(padding); need stride >= 1 and padding <= kernel / 2")
        }
        guard h + 2 * padding >= kernel, w + 2 * padding >= kernel else {
            throw .shapeMismatch("layer '\(check.layer.name)' (\(name)): a \(kernel)x\(kernel) window does not fit \(x)")
        }
        return .image(channels: c, height: (h + 2 * padding - kernel) / stride + 1,
                      width: (w + 2 * padding - kernel) / stride + 1)
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        if kernel == stride, padding == 0,
           graph.fuse(layer, { $0.fusePool(max: max, size: kernel, input: layer.inputShapes[0]) }) { return }
        graph.append(PoolKernel(max: max, kernel: kernel, stride: stride, padding: padding), for: layer)
    }

    func encodeParameters(to encoder: any Encoder) throws { try parameters.encode(to: encoder) }
}

struct PoolKernel: LoweredKernel {
    let max: Bool
    let kernel: Int, stride: Int, padding: Int

    var summary: String { "\(max ? "max" : "avg")pool \(kernel) s\(stride) p\(padding)" }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        PoolStep(max: max, kernel: Int32(kernel), stride: Int32(stride), padding: Int32(padding),
                 input: emission.slot(node.inputs[0]), output: emission.slot(node.output))
    }
}

/// Calls `ik_pool`.
struct PoolStep: ProgramStep {
    let max: Bool
    let kernel: Int32, stride: Int32, padding: Int32
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        ik_pool(max ? 1 : 0, input.view(workspace, image: image), output.view(workspace, image: image), count,
                kernel, stride, padding)
    }
}
