/// A trainable network's numbers: every parameter in one array (the layers'
/// weights, biases, batch-norm scales and shifts, in layer order) and the
/// batch-norm running statistics in another.
public struct Network: Sendable {
    public let architecture: Architecture
    let plan: NetworkPlan
    public var parameters: [Float]
    /// Per batch-norm layer: running mean `[C]`, then running variance `[C]`.
    public var statistics: [Float]

    /// He-normal weights (`std = sqrt(2 / fan_in)`, suited to ReLU), zero
    /// biases, batch norm starting as the identity.
    public init(architecture: Architecture, seed: UInt64) {
        self.architecture = architecture
        plan = NetworkPlan(architecture)
        parameters = [Float](repeating: 0, count: plan.parameterCount)
        statistics = [Float](repeating: 0, count: plan.statisticsCount)
        var generator = SeededGenerator(seed: seed, stream: 0x1417)
        for layer in plan.layers {
            switch layer.spec {
            case .conv2d, .dense:
                let fanIn = layer.decayedCount / (layer.decayedCount == 0 ? 1 : layer.output.channels)
                let std = (2 / Float(fanIn)).squareRoot()
                for i in 0..<layer.decayedCount {
                    parameters[layer.parameterOffset + i] = std * generator.normal()
                }
            case .batchNorm:
                let c = layer.input.channels
                for i in 0..<c {
                    parameters[layer.parameterOffset + i] = 1
                    statistics[layer.statisticsOffset + c + i] = 1
                }
            default:
                break
            }
        }
    }

    public var parameterCount: Int { plan.parameterCount }
    public var outputCount: Int { plan.outputCount }

    /// 1 where weight decay applies (convolution and dense weights), 0 for
    /// biases and batch-norm parameters, as is usual.
    var decayMask: [Float] {
        var mask = [Float](repeating: 0, count: plan.parameterCount)
        for layer in plan.layers {
            for i in 0..<layer.decayedCount { mask[layer.parameterOffset + i] = 1 }
        }
        return mask
    }
}
