/// A function whose graph has been checked: every value is defined once and
/// before use, every weight exists with the right shape and finite values,
/// every operation's parameters make sense (each operation's own shape rule,
/// in its file under Operations/), and the shape of every value is known.
package struct CheckedFunction {
    struct CheckedLayer {
        var layer: Layer
        var inputShapes: [SampleShape]
        var shape: SampleShape
    }

    let name: String
    let inputs: [(name: String, shape: SampleShape)]
    let outputs: [(name: String, shape: SampleShape)]
    let layers: [CheckedLayer]
    /// Scalars in the tensors the graph uses.
    let parameterCount: Int

    package init(name: String, description: FunctionDescription, tensors: [String: NDArray]) throws(ModelError) {
        self.name = name
        var shapes: [String: SampleShape] = [:]
        var inputs: [(String, SampleShape)] = []
        guard !description.inputs.isEmpty else { throw .badGraph("function '\(name)' has no inputs") }
        guard !description.outputs.isEmpty else { throw .badGraph("function '\(name)' has no outputs") }
        for input in description.inputs {
            guard let first = input.shape.first, first == -1 || first > 0,
                  let shape = SampleShape(dimensions: Array(input.shape.dropFirst())) else {
                throw .badGraph("input '\(input.name)' of '\(name)' has shape \(input.shape); expected [N,C,H,W] or [N,F]")
            }
            guard shapes[input.name] == nil else { throw .badGraph("input '\(input.name)' of '\(name)' is declared twice") }
            shapes[input.name] = shape
            inputs.append((input.name, shape))
        }

        var checked: [CheckedLayer] = []
        var check = LayerCheck(tensors: tensors)
        for layer in description.layers {
            let definition = layer.operation.definition
            guard layer.inputs.count == definition.arity else {
                let arity = definition.arity
                throw .badGraph("layer '\(layer.name)' (\(layer.op)) takes \(arity) input\(arity == 1 ? "" : "s"), has \(layer.inputs.count)")
            }
            var inputShapes: [SampleShape] = []
            for input in layer.inputs {
                guard let shape = shapes[input] else {
                    throw .badGraph("layer '\(layer.name)' reads '\(input)' before anything defines it")
                }
                inputShapes.append(shape)
            }
            guard shapes[layer.output] == nil else {
                throw .badGraph("layer '\(layer.name)' writes '\(layer.output)', which is already defined")
            }
            check.start(layer)
            let output = try definition.outputShape(inputShapes, &check)
            shapes[layer.output] = output
            checked.append(CheckedLayer(layer: layer, inputShapes: inputShapes, shape: output))
        }

        var outputs: [(String, SampleShape)] = []
        for signature in description.outputs {
            guard let shape = shapes[signature.name] else {
                throw .badGraph("output '\(signature.name)' of '\(name)' is not computed by any layer")
            }
            guard let first = signature.shape.first, first == -1 || first > 0,
                  Array(signature.shape.dropFirst()) == shape.dimensions else {
                throw .shapeMismatch("output '\(signature.name)' of '\(name)' is declared \(signature.shape), the layers make \(shape)")
            }
            outputs.append((signature.name, shape))
        }
        self.inputs = inputs
        self.outputs = outputs
        self.layers = checked
        self.parameterCount = check.parameterCount
    }

    /// Throws unless the function has exactly the contract's input and output.
    func check(against contract: ModelContract) throws(ModelError) {
        let wantInput = SampleShape(dimensions: Array(contract.input.shape.dropFirst()))
        guard inputs.count == 1, inputs[0].name == contract.input.name, inputs[0].shape == wantInput else {
            let found = inputs.map { "'\($0.name)' \($0.shape)" }.joined(separator: ", ")
            throw .shapeMismatch("function '\(name)' takes \(found); the contract wants '\(contract.input.name)' \(contract.input.shape)")
        }
        let wantOutput = SampleShape(dimensions: Array(contract.output.shape.dropFirst()))
        guard outputs.count == 1, outputs[0].name == contract.output.name, outputs[0].shape == wantOutput else {
            let found = outputs.map { "'\($0.name)' \($0.shape)" }.joined(separator: ", ")
            throw .shapeMismatch("function '\(name)' returns \(found); the contract wants '\(contract.output.name)' \(contract.output.shape)")
        }
    }
}
