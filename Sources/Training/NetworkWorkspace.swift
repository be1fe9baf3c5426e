/// The memory one thread needs to run a network forward and backward on up
/// to `capacity` examples: every layer's output (kept for the backward pass),
/// the im2col matrices, batch-norm and pooling state, and gradient scratch.
///
/// A workspace is used by one thread at a time; several workspaces share one
/// read-only parameter array, which is how the trainer splits a batch between
/// cores.
final class NetworkWorkspace: @unchecked Sendable {
    let plan: NetworkPlan
    let capacity: Int
    private(set) var batch = 0
    /// Whether the last forward ran batch norms on their running statistics in training mode.
    private var fixedNormalization = false

    private let input: UnsafeMutablePointer<Float>
    private let outputs: [UnsafeMutablePointer<Float>]
    /// im2col matrices (convolution), `xhat` (batch norm), masks (dropout).
    private let saved: [UnsafeMutablePointer<Float>?]
    private let winners: [UnsafeMutablePointer<Int32>?]
    /// Per batch-norm layer: inverse std, batch mean, batch variance, `[C]` each.
    private let batchStatistics: [UnsafeMutablePointer<Float>?]
    private let gradientA: UnsafeMutablePointer<Float>
    private let gradientB: UnsafeMutablePointer<Float>
    private let columnScratch: UnsafeMutablePointer<Float>
    private let accepted: UnsafeMutablePointer<UInt64>
    private var allocations: [UnsafeMutableRawPointer] = []

    init(plan: NetworkPlan, capacity: Int) {
        precondition(capacity >= 1)
        self.plan = plan
        self.capacity = capacity
        var allocations: [UnsafeMutableRawPointer] = []
        func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
            p.initialize(repeating: 0, count: max(count, 1))
            allocations.append(UnsafeMutableRawPointer(p))
            return p
        }
        input = floats(capacity * plan.architecture.input.count)
        var largest = plan.architecture.input.count
        var largestColumns = 0
        var outputs: [UnsafeMutablePointer<Float>] = []
        var saved: [UnsafeMutablePointer<Float>?] = []
        var winners: [UnsafeMutablePointer<Int32>?] = []
        var batchStatistics: [UnsafeMutablePointer<Float>?] = []
        for layer in plan.layers {
            outputs.append(floats(capacity * layer.output.count))
            largest = max(largest, layer.output.count)
            var kept: UnsafeMutablePointer<Float>? = nil
            var won: UnsafeMutablePointer<Int32>? = nil
            var statistics: UnsafeMutablePointer<Float>? = nil
            switch layer.spec {
            case .conv2d:
                let size = layer.columnRows * capacity * layer.output.height * layer.output.width
                kept = floats(size)
                largestColumns = max(largestColumns, size)
            case .batchNorm:
                kept = floats(capacity * layer.output.count)
                statistics = floats(3 * layer.output.channels)
            case .dropout:
                kept = floats(capacity * layer.output.count)
            case .maxPool:
                let p = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * layer.output.count)
                p.initialize(repeating: 0, count: capacity * layer.output.count)
                allocations.append(UnsafeMutableRawPointer(p))
                won = p
            default:
                break
            }
            saved.append(kept)
            winners.append(won)
            batchStatistics.append(statistics)
        }
        gradientA = floats(capacity * largest)
        gradientB = floats(capacity * largest)
        columnScratch = floats(largestColumns)
        let l = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        l.initialize(repeating: 0, count: capacity)
        allocations.append(UnsafeMutableRawPointer(l))
        accepted = l
        self.outputs = outputs
        self.saved = saved
        self.winners = winners
        self.batchStatistics = batchStatistics
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }

    /// The logits of the last `forward`, flat `[batch, classes]`.
    var logits: UnsafePointer<Float> { UnsafePointer(outputs[outputs.count - 1]) }

    /// Runs the network on `count` examples given as `[N, C, H, W]`.
    /// Training mode uses batch statistics and dropout; inference mode the
    /// running statistics and no dropout. With `fixedNormalization`, every
    /// batch norm runs as at inference even in training mode: it keeps its
    /// running statistics, scale and shift while the layers around it learn.
    func forward(_ examples: UnsafePointer<Float>, count: Int, parameters: UnsafePointer<Float>,
                 statistics: UnsafePointer<Float>, training: Bool, fixedNormalization: Bool = false,
                 generator: inout SeededGenerator) {
        precondition(count >= 1 && count <= capacity, "batch of \(count) for a workspace of \(capacity)")
        batch = count
        self.fixedNormalization = fixedNormalization
        // [N, C, H, W] -> [C, N, H, W]; a copy either way, a transpose when C > 1.
        let shape = plan.architecture.input
        let plane = shape.height * shape.width
        for b in 0..<count {
            for c in 0..<shape.channels {
                (input + (c * count + b) * plane).update(from: examples + (b * shape.channels + c) * plane, count: plane)
            }
        }
        var x = UnsafePointer(input)
        for (index, layer) in plan.layers.enumerated() {
            let y = outputs[index]
            let p = parameters + layer.parameterOffset
            switch layer.spec {
            case .conv2d(_, let kernel, let padding, let hasBias):
                Convolution.forward(x, geometry(layer, kernel: kernel, padding: padding), weight: p,
                                    bias: hasBias ? p + layer.decayedCount : nil, col: saved[index]!, y: y)
            case .batchNorm(let epsilon):
                let c = layer.input.channels
                let run = count * layer.input.height * layer.input.width
                if training && !fixedNormalization {
                    let s = batchStatistics[index]!
                    BatchNorm.forwardTraining(x, channels: c, run: run, epsilon: epsilon, gamma: p, beta: p + c,
                                              xhat: saved[index]!, inverseStd: s, mean: s + c, variance: s + 2 * c, y: y)
                } else {
                    let r = statistics + layer.statisticsOffset
                    BatchNorm.forwardInference(x, channels: c, run: run, epsilon: epsilon, gamma: p, beta: p + c,
                                               runningMean: r, runningVariance: r + c, y: y)
                }
            case .relu:
                ReLU.forward(x, count: count * layer.input.count, y: y)
            case .maxPool(let size):
                MaxPool.forward(x, input: layer.input, batch: count, size: size, winners: winners[index]!, y: y)
            case .flatten:
                Flatten.forward(x, input: layer.input, batch: count, y: y)
            case .dense(let n):
                Dense.forward(x, batch: count, inputs: layer.input.count, outputs: n, weight: p,
                              bias: p + layer.decayedCount, y: y)
            case .dropout(let rate):
                if training && rate > 0 {
                    Dropout.forward(x, count: count * layer.input.count, rate: rate, mask: saved[index]!,
                                    generator: &generator, y: y)
                } else {
                    y.update(from: x, count: count * layer.input.count)
                }
            }
            x = UnsafePointer(y)
        }
    }

    /// After a training-mode `forward`: the loss of the batch against the
    /// `accepted` label masks (one per example, bit k for label k), and the
    /// gradients of `scale * loss` written into `gradients` (every
    /// parameter's slot, overwritten) and, if asked, into `inputGradient` as
    /// `[N, C, H, W]`. Examples whose mask is 0 learn from their row of
    /// `softTargets` at `temperature` instead (see `SoftmaxCrossEntropy`).
    /// After a forward with `fixedNormalization`, batch norms pass gradients
    /// through their running statistics (`statistics`) and their own are zero.
    func backward(accepted given: UnsafePointer<UInt64>, softTargets: UnsafePointer<Float>? = nil,
                  temperature: Float = 1, scale: Float, smoothing: Float,
                  parameters: UnsafePointer<Float>, statistics: UnsafePointer<Float>? = nil,
                  gradients: UnsafeMutablePointer<Float>,
                  inputGradient: UnsafeMutablePointer<Float>? = nil) -> SoftmaxCrossEntropy.Result {
        precondition(!fixedNormalization || statistics != nil, "fixed batch norms need their running statistics")
        let count = batch
        accepted.update(from: given, count: count)
        var dy = gradientA
        var dx = gradientB
        let result = SoftmaxCrossEntropy.forwardBackward(logits, accepted: accepted, softTargets: softTargets,
                                                         temperature: temperature, batch: count, classes: plan.outputCount,
                                                         smoothing: smoothing, scale: scale, dLogits: dy)
        for index in plan.layers.indices.reversed() {
            let layer = plan.layers[index]
            let x = index == 0 ? UnsafePointer(input) : UnsafePointer(outputs[index - 1])
            let p = parameters + layer.parameterOffset
            let g = gradients + layer.parameterOffset
            // The first layer's input gradient is needed only when asked for.
            let wantInput = index > 0 || inputGradient != nil
            switch layer.spec {
            case .conv2d(_, let kernel, let padding, let hasBias):
                Convolution.backward(dy, geometry(layer, kernel: kernel, padding: padding), weight: p, col: saved[index]!,
                                     dcol: columnScratch, dWeight: g, dBias: hasBias ? g + layer.decayedCount : nil,
                                     dx: wantInput ? dx : nil)
            case .batchNorm(let epsilon) where fixedNormalization:
                let c = layer.input.channels
                BatchNorm.backwardInference(dy, channels: c, run: count * layer.input.height * layer.input.width,
                                            epsilon: epsilon, gamma: p,
                                            runningVariance: statistics! + layer.statisticsOffset + c, dx: dx)
                g.update(repeating: 0, count: 2 * c)
            case .batchNorm:
                let c = layer.input.channels
                BatchNorm.backward(dy, channels: c, run: count * layer.input.height * layer.input.width, gamma: p,
                                   xhat: saved[index]!, inverseStd: batchStatistics[index]!, dGamma: g, dBeta: g + c, dx: dx)
            case .relu:
                ReLU.backward(dy, y: outputs[index], count: count * layer.input.count, dx: dx)
            case .maxPool(let size):
                MaxPool.backward(dy, input: layer.input, batch: count, size: size, winners: winners[index]!, dx: dx)
            case .flatten:
                Flatten.backward(dy, input: layer.input, batch: count, dx: dx)
            case .dense(let n):
                Dense.backward(dy, x: x, batch: count, inputs: layer.input.count, outputs: n, weight: p, dWeight: g,
                               dBias: g + layer.decayedCount, dx: wantInput ? dx : nil)
            case .dropout(let rate):
                if rate > 0 {
                    Dropout.backward(dy, mask: saved[index]!, count: count * layer.input.count, dx: dx)
                } else {
                    dx.update(from: dy, count: count * layer.input.count)
                }
            }
            swap(&dx, &dy)
        }
        if let inputGradient {
            // dy now holds d(input) as [C, N, H, W].
            let shape = plan.architecture.input
            let plane = shape.height * shape.width
            for b in 0..<count {
                for c in 0..<shape.channels {
                    (inputGradient + (b * shape.channels + c) * plane).update(from: dy + (c * count + b) * plane, count: plane)
                }
            }
        }
        return result
    }

    /// The batch mean and variance a batch-norm layer saw in the last
    /// training-mode forward, `[C]` each.
    func batchMoments(layer index: Int) -> (mean: UnsafePointer<Float>, variance: UnsafePointer<Float>) {
        let c = plan.layers[index].input.channels
        let s = batchStatistics[index]!
        return (UnsafePointer(s + c), UnsafePointer(s + 2 * c))
    }

    private func geometry(_ layer: PlannedLayer, kernel: Int, padding: Int) -> Convolution.Geometry {
        Convolution.Geometry(input: layer.input, output: layer.output, kernel: kernel, padding: padding, batch: batch)
    }
}
