import CInferenceKernels

// flatten: x is (N, C, H, W); y is (N, C * H * W) in (c, h, w) order, as
// PyTorch flattens. A vector (N, F) passes through.
// Costs nothing when the order does not change (one channel, or 1x1) or when
// only dense layers read it (they permute their weights' columns to the
// runtime's channels-last order instead); else a step that reorders.

/// The rules of `flatten`.
struct FlattenDefinition: OperationDefinition {
    var name: String { "flatten" }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        .features(inputs[0].count)
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        graph.append(FlattenKernel(), for: layer)
    }
}

struct FlattenKernel: LoweredKernel {
    var summary: String { "flatten" }

    func sharesStorage(withInput input: SampleShape) -> StorageSharing {
        switch input {
        case .features: .always
        case .image(let c, let h, let w) where c == 1 || h * w == 1: .always
        case .image: .ifReadersTakeChannelsLast
        }
    }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        let (input, output) = (emission.slot(node.inputs[0]), emission.slot(node.output))
        if case .image = emission.shape(node.inputs[0]) { return FlattenStep(input: input, output: output) }
        return CopyStep(relu: false, input: input, output: output)
    }
}

/// Calls `ik_export_nchw` into the output's storage: channels-last to (c, h, w).
struct FlattenStep: ProgramStep {
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        let out = output.view(workspace, image: image)
        ik_export_nchw(input.view(workspace, image: image), out.data, out.image_stride, count)
    }
}
