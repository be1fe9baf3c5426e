import Inference

/// A network read back from an `.aimodel` the trainer wrote, to fine-tune it:
/// the tensors are found under the names `modelFile` gives them (`conv1`,
/// `bn1`, `fc1`, ... in layer order) and must have the shapes the
/// architecture plans.
extension Network {
    public init(architecture: Architecture, modelFile: ModelFile) throws(TrainingError) {
        self.init(architecture: architecture, seed: 0)
        var counters: [String: Int] = [:]
        func next(_ stem: String) -> String {
            counters[stem, default: 0] += 1
            return "\(stem)\(counters[stem]!)"
        }
        func read(_ name: String, count: Int) throws(TrainingError) -> [Float] {
            guard let tensor = modelFile.tensors[name] else {
                throw .incompatibleModel("it has no tensor \(name); it was not made for the architecture \(architecture.name)")
            }
            guard tensor.count == count else {
                throw .incompatibleModel("tensor \(name) holds \(tensor.count) values, the architecture \(architecture.name) needs \(count)")
            }
            return tensor.scalars
        }
        for planned in plan.layers {
            let o = planned.parameterOffset
            switch planned.spec {
            case .conv2d(_, _, _, let hasBias):
                let id = next("conv")
                parameters.replaceSubrange(o..<o + planned.decayedCount,
                                           with: try read("\(id).weight", count: planned.decayedCount))
                if hasBias {
                    let c = planned.output.channels
                    let b = o + planned.decayedCount
                    parameters.replaceSubrange(b..<b + c, with: try read("\(id).bias", count: c))
                }
            case .batchNorm:
                let id = next("bn")
                let c = planned.input.channels
                let s = planned.statisticsOffset
                parameters.replaceSubrange(o..<o + c, with: try read("\(id).weight", count: c))
                parameters.replaceSubrange(o + c..<o + 2 * c, with: try read("\(id).bias", count: c))
                statistics.replaceSubrange(s..<s + c, with: try read("\(id).running_mean", count: c))
                statistics.replaceSubrange(s + c..<s + 2 * c, with: try read("\(id).running_var", count: c))
            case .dense(let outputs):
                let id = next("fc")
                parameters.replaceSubrange(o..<o + planned.decayedCount,
                                           with: try read("\(id).weight", count: planned.decayedCount))
                let b = o + planned.decayedCount
                parameters.replaceSubrange(b..<b + outputs, with: try read("\(id).bias", count: outputs))
            case .relu, .maxPool, .flatten, .dropout:
                break
            }
        }
        let expected = counters.values.reduce(0, +)
        let layers = modelFile.description.functions["main"]?.layers.filter { !$0.operation.learnedTensors.isEmpty }.count
        guard layers == nil || layers == expected else {
            throw .incompatibleModel("its main function has \(layers!) layers with weights, the architecture \(architecture.name) has \(expected)")
        }
        // The tensors' names and sizes do not say what the parent computes: a parent whose pooling
        // was avgpool (or whose batch norm had another epsilon) was fine-tuned as the architecture's
        // maxpool, and the new model, at a learning rate of 1e-6, 'rose' from 0.8255 to 0.9395 on
        // the test set by computing another function. Its graph must be the one this network exports.
        if let main = modelFile.description.functions["main"],
           let difference = Self.difference(main, from: self.modelFile(name: "", version: "", labels: [], training: [:])
                                                .description.functions["main"]!, architecture: architecture.name) {
            throw .incompatibleModel(difference)
        }
    }

    /// How `parent` computes something other than `own` (the architecture's function), or nil
    /// when the two compute the same: the same inputs and outputs, one chain of layers from the
    /// input to the output with the same operations and parameters in the same order. Names of
    /// layers and values are free, and dropout, which only training does, is left out.
    static func difference(_ parent: FunctionDescription, from own: FunctionDescription, architecture: String) -> String? {
        guard parent.inputs.map(\.shape) == own.inputs.map(\.shape), parent.outputs.map(\.shape) == own.outputs.map(\.shape),
              parent.inputs.count == 1, parent.outputs.count == 1 else {
            return "its main function's inputs and outputs are \(parent.inputs.map(\.shape)) and \(parent.outputs.map(\.shape)), "
                + "the architecture \(architecture)'s \(own.inputs.map(\.shape)) and \(own.outputs.map(\.shape))"
        }
        func computing(_ function: FunctionDescription) -> [Layer]? {
            var previous = function.inputs[0].name
            for layer in function.layers {
                guard layer.inputs == [previous] else { return nil }
                previous = layer.output
            }
            guard previous == function.outputs[0].name else { return nil }
            return function.layers.filter { if case .dropout = $0.operation { false } else { true } }
        }
        guard let theirs = computing(parent), let ours = computing(own) else {
            return "its main function is not one chain of layers from its input to its output, as the architecture \(architecture) is"
        }
        for (index, (layer, planned)) in zip(theirs, ours).enumerated() where layer.operation != planned.operation {
            return layer.op == planned.op
                ? "its layer \(index + 1) ('\(layer.name)', \(layer.op)) has other parameters than the architecture \(architecture)'s"
                : "its layer \(index + 1) ('\(layer.name)') is \(layer.op) where the architecture \(architecture) has \(planned.op)"
        }
        return theirs.count == ours.count ? nil
            : "its main function has \(theirs.count) layers besides dropout, the architecture \(architecture) \(ours.count)"
    }

    /// Divides the last layer's weights and bias by `temperature`: the logits
    /// become `logits / T`, so the contract's softmax gives the calibrated
    /// confidence and the argmax (the label) is unchanged.
    public mutating func foldTemperature(_ temperature: Float) {
        precondition(temperature > 0, "a temperature is positive")
        guard let last = plan.layers.last, case .dense = last.spec else {
            preconditionFailure("the last layer is not dense")
        }
        for i in last.parameterOffset..<last.parameterOffset + last.parameterCount { parameters[i] /= temperature }
    }
}

/// What the trainer refuses, with a reason a user can act on.
public enum TrainingError: Error, Equatable, CustomStringConvertible {
    case incompatibleModel(String)
    case noExamples(String)
    /// A rehearsal file (`Rehearsal`) that cannot be read, and why.
    case badRehearsal(String)

    public var description: String {
        switch self {
        case .incompatibleModel(let reason): "cannot fine-tune this model: \(reason)"
        case .noExamples(let reason): reason
        case .badRehearsal(let reason): "not a rehearsal file: \(reason)"
        }
    }
}
