import CInferenceKernels

// globalavgpool: x is (N, C, H, W); y is (N, C, 1, 1), each channel's mean.

/// The rules of `globalavgpool`.
struct GlobalAvgPoolDefinition: OperationDefinition {
    var name: String { "globalavgpool" }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        let (c, _, _) = try check.image(inputs[0])
        return .image(channels: c, height: 1, width: 1)
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        graph.append(GlobalAvgPoolKernel(), for: layer)
    }
}

struct GlobalAvgPoolKernel: LoweredKernel {
    var summary: String { "globalavgpool" }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        GlobalAvgPoolStep(input: emission.slot(node.inputs[0]), output: emission.slot(node.output))
    }
}

/// Calls `ik_global_avg_pool`.
struct GlobalAvgPoolStep: ProgramStep {
    let input: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        ik_global_avg_pool(input.view(workspace, image: image), output.view(workspace, image: image), count)
    }
}
