import CInferenceKernels

// add: a and b of one shape; y = a + b, that shape.
// Lowers to a step that may also take the ReLU after it.

/// The rules of `add`.
struct AddDefinition: OperationDefinition {
    var name: String { "add" }
    var arity: Int { 2 }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        guard inputs[1] == inputs[0] else {
            throw .shapeMismatch("layer '\(check.layer.name)' (add) adds \(inputs[0]) to \(inputs[1])")
        }
        return inputs[0]
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {
        graph.append(AddKernel(), for: layer)
    }
}

struct AddKernel: LoweredKernel {
    var relu = false

    var summary: String { "add" + (relu ? " +relu" : "") }

    mutating func fuseReLU() -> Bool {
        guard !relu else { return false }
        relu = true
        return true
    }

    func emit(_ node: LoweredGraph.Node, _ emission: inout Emission) -> any ProgramStep {
        AddStep(relu: relu, a: emission.slot(node.inputs[0]), b: emission.slot(node.inputs[1]),
                output: emission.slot(node.output))
    }
}

/// Calls `ik_add`.
struct AddStep: ProgramStep {
    let relu: Bool
    let a: Program.Slot, b: Program.Slot, output: Program.Slot

    func run(_ workspace: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, image: Int, count: Int32) {
        ik_add(a.view(workspace, image: image), b.view(workspace, image: image), output.view(workspace, image: image),
               count, relu ? 1 : 0)
    }
}
