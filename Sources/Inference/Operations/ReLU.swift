import CInferenceKernels

// relu: x of any shape; y = max(x, 0), the shape of x.
// Lowers into the kernel before it when that kernel can apply it to its own
// output (convolution, dense, affine, add) and nothing else reads that
// output; else a copy step that applies it.

/// The rules of `relu`.
struct ReLUDefinition: OperationDefinition {
    var name: String { "relu" }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        inputs[0]
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        if graph.fuse(layer, { $0.fuseReLU() }) { return }
        graph.append(CopyKernel(relu: true), for: layer)
    }
}

/// A copy between views of one shape, optionally through a ReLU.
struct CopyKernel: LoweredKernel {
    let relu: Bool

    var summary: String { relu ? "relu" : "copy" }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        CopyStep(relu: relu, input: emission.slot(node.inputs[0]), output: emission.slot(node.output))
    }
}

/// Calls `ik_copy`.
struct CopyStep: ProgramStep {
    let relu: Bool
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        ik_copy(input.view(workspace, image: image), output.view(workspace, image: image), count, relu ? 1 : 0)
    }
}
