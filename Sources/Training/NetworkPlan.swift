/// How a network's values are laid out in memory for a batch of N examples.
/// `spatial` is channel-major over the batch, `[C, N, H, W]`, so one
/// convolution is one matrix product over the whole batch and each batch-norm
/// channel is contiguous. `flat` is `[N, F]`, what dense layers multiply.
enum Layout: Sendable, Equatable { case spatial, flat }

/// One layer with its shapes and where its numbers live.
struct PlannedLayer: Sendable {
    var spec: LayerSpec
    var input: FeatureShape
    var output: FeatureShape
    var layout: Layout           // of the input; the output's is `outputLayout`
    var outputLayout: Layout
    /// Offset and count in the network's one parameter array.
    var parameterOffset: Int
    var parameterCount: Int
    /// Offset and count in the running-statistics array (batch norm only).
    var statisticsOffset: Int
    var statisticsCount: Int
    /// Rows of the im2col matrix (convolution only): inC * k * k.
    var columnRows: Int { if case .conv2d(_, let k, _, _) = spec { input.channels * k * k } else { 0 } }
    /// Whether the parameters start with a weight that weight decay applies to.
    var decayedCount: Int {
        switch spec {
        case .conv2d(let c, let k, _, _): c * input.channels * k * k
        case .dense(let n): n * input.count
        default: 0
        }
    }
}

/// An architecture resolved into shapes, layouts and parameter offsets.
struct NetworkPlan: Sendable {
    var architecture: Architecture
    var layers: [PlannedLayer] = []
    var parameterCount = 0
    var statisticsCount = 0
    var multiplyAddsPerImage = 0

    init(_ architecture: Architecture) {
        self.architecture = architecture
        var shape = architecture.input
        var layout = Layout.spatial
        for spec in architecture.layers {
            var output = shape
            var outputLayout = layout
            var parameters = 0
            var statistics = 0
            switch spec {
            case .conv2d(let channels, let kernel, let padding, let bias):
                precondition(layout == .spatial, "conv2d needs a spatial input; it follows a flatten")
                precondition(kernel >= 1 && padding >= 0 && channels >= 1, "bad conv2d \(spec)")
                output = FeatureShape(channels: channels, height: shape.height + 2 * padding - kernel + 1,
                                      width: shape.width + 2 * padding - kernel + 1)
                precondition(output.height >= 1 && output.width >= 1, "conv2d kernel larger than its input \(shape)")
                parameters = channels * shape.channels * kernel * kernel + (bias ? channels : 0)
                multiplyAddsPerImage += channels * shape.channels * kernel * kernel * output.height * output.width
            case .batchNorm(let epsilon):
                precondition(layout == .spatial, "batchnorm is implemented for spatial values only")
                precondition(epsilon > 0, "batchnorm epsilon must be positive")
                parameters = 2 * shape.channels
                statistics = 2 * shape.channels
            case .relu:
                break
            case .maxPool(let size):
                precondition(layout == .spatial && size >= 1, "bad maxpool \(spec)")
                output = FeatureShape(channels: shape.channels, height: shape.height / size, width: shape.width / size)
                precondition(output.height >= 1 && output.width >= 1, "maxpool larger than its input \(shape)")
            case .flatten:
                precondition(layout == .spatial, "flatten twice")
                output = FeatureShape(channels: shape.count, height: 1, width: 1)
                outputLayout = .flat
            case .dense(let outputs):
                precondition(layout == .flat, "dense needs a flatten before it")
                output = FeatureShape(channels: outputs, height: 1, width: 1)
                parameters = outputs * shape.count + outputs
                multiplyAddsPerImage += outputs * shape.count
            case .dropout(let rate):
                precondition(rate >= 0 && rate < 1, "dropout rate must be in [0, 1)")
            }
            layers.append(PlannedLayer(spec: spec, input: shape, output: output, layout: layout,
                                       outputLayout: outputLayout,
                                       parameterOffset: parameterCount, parameterCount: parameters,
                                       statisticsOffset: statisticsCount, statisticsCount: statistics))
            parameterCount += parameters
            statisticsCount += statistics
            shape = output
            layout = outputLayout
        }
        precondition(layout == .flat, "the last layer must give flat logits (end with flatten/dense)")
    }

    var outputCount: Int { layers.last?.output.count ?? 0 }
}
