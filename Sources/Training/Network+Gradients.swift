/// Whole-batch entry points on one thread, for tests, gradient checks and
/// small tools; the trainer drives workspaces directly.
extension Network {
    /// The mean softmax cross-entropy of a batch and its gradients.
    public struct Gradients: Sendable {
        public var loss: Double
        /// One value per parameter, in the order of `parameters`.
        public var parameters: [Float]
        /// One value per input value, `[N, C, H, W]`.
        public var input: [Float]
    }

    /// Training-mode forward (batch statistics; dropout drawn from
    /// `dropoutSeed`, so two calls with one seed drop the same units) and
    /// backward on `examples` (`[N, C, H, W]`).
    public func gradients(examples: [Float], labels: [Int], dropoutSeed: UInt64 = 0,
                          labelSmoothing: Float = 0, fixedNormalization: Bool = false) -> Gradients {
        gradients(examples: examples, targets: labels.map { .accepted([$0]) }, dropoutSeed: dropoutSeed,
                  labelSmoothing: labelSmoothing, fixedNormalization: fixedNormalization)
    }

    /// The same with several accepted labels per example (see `SoftmaxCrossEntropy`).
    public func gradients(examples: [Float], accepted: [[Int]], dropoutSeed: UInt64 = 0,
                          labelSmoothing: Float = 0) -> Gradients {
        gradients(examples: examples, targets: accepted.map { .accepted($0) }, dropoutSeed: dropoutSeed,
                  labelSmoothing: labelSmoothing)
    }

    /// What one example learns: labels that count as right, or another
    /// model's probabilities (a soft target, at the distillation temperature).
    public enum Target: Sendable, Equatable {
        case accepted([Int])
        case soft([Float])
    }

    /// The same with any mix of labelled and soft-target examples. With
    /// `fixedNormalization`, batch norms normalise by their running
    /// statistics, as a fine-tune that keeps them does.
    public func gradients(examples: [Float], targets: [Target], temperature: Float = 1, dropoutSeed: UInt64 = 0,
                          labelSmoothing: Float = 0, fixedNormalization: Bool = false) -> Gradients {
        let count = targets.count
        precondition(examples.count == count * architecture.input.count, "examples and labels disagree")
        let workspace = NetworkWorkspace(plan: plan, capacity: count)
        var generator = SeededGenerator(seed: dropoutSeed)
        var parameterGradients = [Float](repeating: 0, count: parameters.count)
        var inputGradients = [Float](repeating: 0, count: examples.count)
        var masks = [UInt64](repeating: 0, count: count)
        var soft = [Float](repeating: 0, count: count * outputCount)
        for (i, target) in targets.enumerated() {
            switch target {
            case .accepted(let labels): masks[i] = labels.reduce(UInt64(0)) { $0 | SoftmaxCrossEntropy.mask(label: $1) }
            case .soft(let probabilities): soft.replaceSubrange(i * outputCount..<(i + 1) * outputCount, with: probabilities)
            }
        }
        let result = parameters.withUnsafeBufferPointer { p in
            statistics.withUnsafeBufferPointer { s in
                workspace.forward(examples, count: count, parameters: p.baseAddress!, statistics: s.baseAddress!,
                                  training: true, fixedNormalization: fixedNormalization, generator: &generator)
                return parameterGradients.withUnsafeMutableBufferPointer { g in
                    inputGradients.withUnsafeMutableBufferPointer { i in
                        soft.withUnsafeBufferPointer { targets in
                            workspace.backward(accepted: masks, softTargets: targets.baseAddress!, temperature: temperature,
                                               scale: 1 / Float(count), smoothing: labelSmoothing,
                                               parameters: p.baseAddress!, statistics: s.baseAddress!,
                                               gradients: g.baseAddress!,
                                               inputGradient: i.baseAddress!)
                        }
                    }
                }
            }
        }
        return Gradients(loss: result.lossSum / Double(count), parameters: parameterGradients, input: inputGradients)
    }

    /// The mean training-mode loss alone (the quantity `gradients` differentiates).
    public func loss(examples: [Float], labels: [Int], dropoutSeed: UInt64 = 0, labelSmoothing: Float = 0,
                     fixedNormalization: Bool = false) -> Double {
        gradients(examples: examples, labels: labels, dropoutSeed: dropoutSeed, labelSmoothing: labelSmoothing,
                  fixedNormalization: fixedNormalization).loss
    }

    public func loss(examples: [Float], accepted: [[Int]], dropoutSeed: UInt64 = 0, labelSmoothing: Float = 0) -> Double {
        gradients(examples: examples, accepted: accepted, dropoutSeed: dropoutSeed, labelSmoothing: labelSmoothing).loss
    }

    /// Inference-mode logits (running statistics, no dropout), `[N, classes]`.
    public func logits(examples: [Float]) -> [Float] {
        let count = examples.count / architecture.input.count
        precondition(count * architecture.input.count == examples.count && count > 0, "examples are not whole images")
        let workspace = NetworkWorkspace(plan: plan, capacity: count)
        var generator = SeededGenerator(seed: 0)
        parameters.withUnsafeBufferPointer { p in
            statistics.withUnsafeBufferPointer { s in
                workspace.forward(examples, count: count, parameters: p.baseAddress!, statistics: s.baseAddress!,
                                  training: false, generator: &generator)
            }
        }
        return Array(UnsafeBufferPointer(start: workspace.logits, count: count * outputCount))
    }
}
