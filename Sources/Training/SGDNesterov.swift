/// Stochastic gradient descent with Nesterov momentum and L2 weight decay,
/// in PyTorch's formulation: `g += wd * w; v = mu * v + g; w -= lr * (g + mu * v)`.
/// Decay applies only where `decayMask` is 1 (weights, not biases or
/// batch-norm parameters).
public struct SGDNesterov: Sendable {
    public var momentum: Float
    public var weightDecay: Float
    private var velocity: [Float]
    private let decayMask: [Float]

    public init(parameterCount: Int, momentum: Float, weightDecay: Float, decayMask: [Float]) {
        precondition(decayMask.count == parameterCount)
        self.momentum = momentum
        self.weightDecay = weightDecay
        self.decayMask = decayMask
        velocity = [Float](repeating: 0, count: parameterCount)
    }

    public mutating func step(parameters: inout [Float], gradients: [Float], learningRate: Float) {
        precondition(parameters.count == velocity.count && gradients.count == velocity.count)
        let (mu, wd, lr) = (momentum, weightDecay, learningRate)
        parameters.withUnsafeMutableBufferPointer { w in
            velocity.withUnsafeMutableBufferPointer { v in
                gradients.withUnsafeBufferPointer { g in
                    decayMask.withUnsafeBufferPointer { mask in
                        for i in 0..<w.count {
                            let gi = g[i] + wd * mask[i] * w[i]
                            let vi = mu * v[i] + gi
                            v[i] = vi
                            w[i] -= lr * (gi + mu * vi)
                        }
                    }
                }
            }
        }
    }
}
