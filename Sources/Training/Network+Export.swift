import Inference

/// The trained network as an `.aimodel`: the layer graph of `main` and its
/// tensors under PyTorch's names and layouts (convolution `[out, in, kh, kw]`,
/// dense `[out, in]`, batch norm with its running statistics).
extension Network {
    public static let inputName = ModelContract.standard.input.name
    public static let outputName = ModelContract.standard.output.name

    public func modelFile(name: String, version: String, labels: [String], training: [String: String]) -> ModelFile {
        var layers: [Layer] = []
        var tensors: [String: NDArray] = [:]
        var counters: [String: Int] = [:]
        var previous = Self.inputName
        func next(_ stem: String) -> String {
            counters[stem, default: 0] += 1
            return "\(stem)\(counters[stem]!)"
        }
        func slice(_ offset: Int, _ shape: [Int]) -> NDArray {
            let count = shape.reduce(1, *)
            return NDArray(shape: shape, scalars: Array(parameters[offset..<offset + count]))
        }
        for (index, planned) in plan.layers.enumerated() {
            let last = index == plan.layers.count - 1
            let o = planned.parameterOffset
            var layer: Layer
            switch planned.spec {
            case .conv2d(let channels, let kernel, let padding, let hasBias):
                let id = next("conv")
                tensors["\(id).weight"] = slice(o, [channels, planned.input.channels, kernel, kernel])
                if hasBias { tensors["\(id).bias"] = slice(o + planned.decayedCount, [channels]) }
                layer = Layer(.conv2d(.init(weight: "\(id).weight", bias: hasBias ? "\(id).bias" : nil, stride: 1, padding: padding)),
                              name: id, inputs: [previous], output: id)
            case .batchNorm(let epsilon):
                let id = next("bn")
                let c = planned.input.channels
                let s = planned.statisticsOffset
                tensors["\(id).weight"] = slice(o, [c])
                tensors["\(id).bias"] = slice(o + c, [c])
                tensors["\(id).running_mean"] = NDArray(shape: [c], scalars: Array(statistics[s..<s + c]))
                tensors["\(id).running_var"] = NDArray(shape: [c], scalars: Array(statistics[s + c..<s + 2 * c]))
                layer = Layer(.batchNorm(.init(gamma: "\(id).weight", beta: "\(id).bias",
                                               mean: "\(id).running_mean", variance: "\(id).running_var", epsilon: epsilon)),
                              name: id, inputs: [previous], output: id)
            case .relu:
                let id = next("relu")
                layer = Layer(.relu, name: id, inputs: [previous], output: id)
            case .maxPool(let size):
                let id = next("pool")
                layer = Layer(.maxPool(.init(kernel: size, stride: size, padding: 0)), name: id, inputs: [previous], output: id)
            case .flatten:
                let id = next("flatten")
                layer = Layer(.flatten, name: id, inputs: [previous], output: id)
            case .dense(let outputs):
                let id = next("fc")
                tensors["\(id).weight"] = slice(o, [outputs, planned.input.count])
                tensors["\(id).bias"] = slice(o + planned.decayedCount, [outputs])
                layer = Layer(.dense(.init(weight: "\(id).weight", bias: "\(id).bias")), name: id, inputs: [previous], output: id)
            case .dropout(let rate):
                let id = next("dropout")
                layer = Layer(.dropout(.init(rate: rate)), name: id, inputs: [previous], output: id)
            }
            if last { layer.output = Self.outputName }
            previous = layer.output
            layers.append(layer)
        }
        let input = architecture.input
        let main = FunctionDescription(
            inputs: [TensorSignature(name: Self.inputName, shape: [-1, input.channels, input.height, input.width])],
            outputs: [TensorSignature(name: Self.outputName, shape: [-1, outputCount])],
            layers: layers)
        let description = ModelDescription(name: name, version: version, labels: labels,
                                           functions: ["main": main], training: training)
        return ModelFile(description: description, tensors: tensors)
    }
}
