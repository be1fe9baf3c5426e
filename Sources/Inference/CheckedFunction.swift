/// A function whose graph has been checked: every value is defined once and
/// before use, every weight exists with the right shape and finite values,
/// every operation's fields make sense, and the shape of every value is known.
struct CheckedFunction {
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

    init(name: String, description: FunctionDescription, tensors: [String: NDArray]) throws(ModelError) {
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

        var used: Set<String> = []
        var parameterCount = 0
        func weight(_ key: String?, of layer: Layer, _ role: String) throws(ModelError) -> NDArray {
            guard let key else { throw .badGraph("layer '\(layer.name)' (\(layer.op.rawValue)) names no \(role)") }
            guard let tensor = tensors[key] else { throw .missingTensor(key) }
            if let index = tensor.scalars.firstIndex(where: { !$0.isFinite }) {
                throw .badTensor(name: key, reason: "value \(index) is \(tensor.scalars[index]); weights must be finite")
            }
            if used.insert(key).inserted { parameterCount += tensor.count }
            return tensor
        }
        func expect(_ tensor: NDArray, _ key: String?, _ shape: [Int], _ layer: Layer) throws(ModelError) {
            guard tensor.shape == shape else {
                throw .shapeMismatch("tensor '\(key ?? "")' of layer '\(layer.name)' has shape \(tensor.shape), expected \(shape)")
            }
        }

        var checked: [CheckedLayer] = []
        for layer in description.layers {
            let arity = layer.op == .add ? 2 : 1
            guard layer.inputs.count == arity else {
                throw .badGraph("layer '\(layer.name)' (\(layer.op.rawValue)) takes \(arity) input\(arity == 1 ? "" : "s"), has \(layer.inputs.count)")
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
            let x = inputShapes[0]
            let output: SampleShape
            switch layer.op {
            case .conv2d:
                guard case .image(let c, let h, let w) = x else {
                    throw .shapeMismatch("layer '\(layer.name)' (conv2d) needs an image [N,C,H,W], gets \(x)")
                }
                let kernel = try weight(layer.weight, of: layer, "weight")
                guard kernel.rank == 4, kernel.shape[0] > 0, kernel.shape[1] == c, kernel.shape[2] > 0, kernel.shape[3] > 0 else {
                    throw .shapeMismatch("weight '\(layer.weight!)' of layer '\(layer.name)' has shape \(kernel.shape), expected [out,\(c),kh,kw]")
                }
                let (outChannels, kh, kw) = (kernel.shape[0], kernel.shape[2], kernel.shape[3])
                if let k = layer.kernel, k != kh || k != kw {
                    throw .shapeMismatch("layer '\(layer.name)' says kernel \(k), its weight is \(kh)x\(kw)")
                }
                if layer.bias != nil { try expect(try weight(layer.bias, of: layer, "bias"), layer.bias, [outChannels], layer) }
                let stride = layer.stride ?? 1, padding = layer.padding ?? 0
                guard stride >= 1, stride <= 64, padding >= 0, padding < max(kh, kw) else {
                    throw .badGraph("layer '\(layer.name)' (conv2d) has stride \(stride) and padding \(padding); need stride >= 1 and 0 <= padding < kernel")
                }
                guard h + 2 * padding >= kh, w + 2 * padding >= kw else {
                    throw .shapeMismatch("layer '\(layer.name)' (conv2d): a \(kh)x\(kw) kernel does not fit \(x) with padding \(padding)")
                }
                output = .image(channels: outChannels, height: (h + 2 * padding - kh) / stride + 1,
                                width: (w + 2 * padding - kw) / stride + 1)
            case .batchNorm:
                let channels = x.channels
                for (key, role) in [(layer.mean, "mean"), (layer.variance, "variance")] {
                    try expect(try weight(key, of: layer, role), key, [channels], layer)
                }
                for key in [layer.gamma, layer.beta] where key != nil {
                    try expect(try weight(key, of: layer, "scale"), key, [channels], layer)
                }
                let epsilon = layer.epsilon ?? 1e-5
                guard epsilon.isFinite, epsilon >= 0 else { throw .badGraph("layer '\(layer.name)' (batchnorm) has epsilon \(epsilon)") }
                if let variance = tensors[layer.variance!], let bad = variance.scalars.first(where: { $0 + epsilon <= 0 }) {
                    throw .badTensor(name: layer.variance!, reason: "variance \(bad) plus epsilon \(epsilon) is not positive")
                }
                output = x
            case .relu:
                output = x
            case .dropout:
                if let rate = layer.rate, !(rate >= 0 && rate < 1) {
                    throw .badGraph("layer '\(layer.name)' (dropout) has rate \(rate); need 0 <= rate < 1")
                }
                output = x
            case .maxPool, .avgPool:
                guard case .image(let c, let h, let w) = x else {
                    throw .shapeMismatch("layer '\(layer.name)' (\(layer.op.rawValue)) needs an image [N,C,H,W], gets \(x)")
                }
                guard let kernel = layer.kernel, kernel >= 1 else {
                    throw .badGraph("layer '\(layer.name)' (\(layer.op.rawValue)) needs a kernel >= 1")
                }
                let stride = layer.stride ?? kernel, padding = layer.padding ?? 0
                guard stride >= 1, padding >= 0, 2 * padding <= kernel else {
                    throw .badGraph("layer '\(layer.name)' (\(layer.op.rawValue)) has stride \(stride) and padding \(padding); need stride >= 1 and padding <= kernel / 2")
                }
                guard h + 2 * padding >= kernel, w + 2 * padding >= kernel else {
                    throw .shapeMismatch("layer '\(layer.name)' (\(layer.op.rawValue)): a \(kernel)x\(kernel) window does not fit \(x)")
                }
                output = .image(channels: c, height: (h + 2 * padding - kernel) / stride + 1,
                                width: (w + 2 * padding - kernel) / stride + 1)
            case .globalAvgPool:
                guard case .image(let c, _, _) = x else {
                    throw .shapeMismatch("layer '\(layer.name)' (globalavgpool) needs an image [N,C,H,W], gets \(x)")
                }
                output = .image(channels: c, height: 1, width: 1)
            case .flatten:
                output = .features(x.count)
            case .dense:
                guard case .features(let features) = x else {
                    throw .shapeMismatch("layer '\(layer.name)' (dense) needs features [N,F], gets \(x); flatten first")
                }
                let matrix = try weight(layer.weight, of: layer, "weight")
                guard matrix.rank == 2, matrix.shape[0] > 0, matrix.shape[1] == features else {
                    throw .shapeMismatch("weight '\(layer.weight!)' of layer '\(layer.name)' has shape \(matrix.shape), expected [out,\(features)]")
                }
                if layer.bias != nil { try expect(try weight(layer.bias, of: layer, "bias"), layer.bias, [matrix.shape[0]], layer) }
                output = .features(matrix.shape[0])
            case .add:
                guard inputShapes[1] == x else {
                    throw .shapeMismatch("layer '\(layer.name)' (add) adds \(x) to \(inputShapes[1])")
                }
                output = x
            }
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
        self.parameterCount = parameterCount
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
