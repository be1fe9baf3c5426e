/// One thread's share of the trainer's work: its workspace, its own gradient
/// array and an image buffer. Workers never touch each other's memory; the
/// parameters they read are not written while they run.
final class NetworkWorker: @unchecked Sendable {
    let workspace: NetworkWorkspace
    private(set) var gradients: [Float]
    let images: UnsafeMutablePointer<Float>
    private(set) var result = SoftmaxCrossEntropy.Result(lossSum: 0, correct: 0)

    init(plan: NetworkPlan, capacity: Int) {
        workspace = NetworkWorkspace(plan: plan, capacity: capacity)
        gradients = [Float](repeating: 0, count: plan.parameterCount)
        images = .allocate(capacity: capacity * plan.architecture.input.count)
        images.initialize(repeating: 0, count: capacity * plan.architecture.input.count)
    }

    deinit { images.deallocate() }

    /// Forward and backward on `count` examples of the batch starting at `first`.
    func trainingStep(_ job: StepJob, first: Int, count: Int, scale: Float, smoothing: Float,
                      generator: inout SeededGenerator) {
        let pixels = workspace.plan.architecture.input.count
        workspace.forward(job.images + first * pixels, count: count, parameters: job.parameters,
                          statistics: job.statistics, training: true, fixedNormalization: job.fixedNormalization,
                          generator: &generator)
        result = gradients.withUnsafeMutableBufferPointer { g in
            workspace.backward(accepted: job.accepted + first, softTargets: job.softTargets + first * SoftTargets.classes,
                               temperature: job.temperature, scale: scale, smoothing: smoothing,
                               parameters: job.parameters, statistics: job.statistics, gradients: g.baseAddress!)
        }
    }
}

/// The read-only memory of one training step, shared by the workers.
struct StepJob: @unchecked Sendable {
    var parameters: UnsafePointer<Float>
    var statistics: UnsafePointer<Float>
    var images: UnsafePointer<Float>
    var accepted: UnsafePointer<UInt64>
    /// `[batch, classes]`; a row is read only where the example's mask is 0.
    var softTargets: UnsafePointer<Float>
    var temperature: Float
    /// Batch norms run on their running statistics and keep their scale and shift.
    var fixedNormalization: Bool
}

/// Memory shared by the workers during evaluation; each writes only its own
/// chunks of `output` (logits).
struct SharedPointers: @unchecked Sendable {
    var parameters: UnsafePointer<Float>
    var statistics: UnsafePointer<Float>
    var output: UnsafeMutablePointer<Float>
}
