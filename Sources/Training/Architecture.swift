import Inference

/// The size of one example's features: channels x height x width. A flat
/// vector of F features is `(F, 1, 1)`.
public struct FeatureShape: Sendable, Equatable, CustomStringConvertible {
    public var channels: Int
    public var height: Int
    public var width: Int

    public init(channels: Int, height: Int, width: Int) {
        self.channels = channels
        self.height = height
        self.width = width
    }

    public var count: Int { channels * height * width }
    public var description: String { "\(channels)x\(height)x\(width)" }
}

/// One layer of a trainable network, as the trainer knows it. Convolution is
/// stride 1 with a square kernel; pooling is square with stride = size.
public enum LayerSpec: Sendable, Equatable {
    case conv2d(outputChannels: Int, kernel: Int, padding: Int, bias: Bool)
    case batchNorm(epsilon: Float)
    case relu
    case maxPool(size: Int)
    case flatten
    case dense(outputs: Int)
    case dropout(rate: Float)

    /// Short text for logs and the model's metadata.
    var summary: String {
        switch self {
        case .conv2d(let c, let k, let p, _): "conv\(k)x\(k)-\(c)" + (p > 0 ? "-pad\(p)" : "")
        case .batchNorm: "bn"
        case .relu: "relu"
        case .maxPool(let s): "maxpool\(s)"
        case .flatten: "flatten"
        case .dense(let n): "dense-\(n)"
        case .dropout(let r): "dropout\(r)"
        }
    }
}

/// A sequential network: an input shape and its layers, the last of which
/// produces the class logits.
public struct Architecture: Sendable, Equatable {
    public var name: String
    public var input: FeatureShape
    public var layers: [LayerSpec]

    /// Checks that the layers fit together (a programmer error if not: the
    /// architectures are written in code).
    public init(name: String, input: FeatureShape, layers: [LayerSpec]) {
        self.name = name
        self.input = input
        self.layers = layers
        _ = NetworkPlan(self)
    }

    /// The bundled model's network: two VGG-style blocks of two 3x3
    /// convolutions with batch norm, then a small dense head (about 470k
    /// parameters, about 19M multiply-adds per image).
    public static func clothing(width: Int = 32, hidden: Int = 128, dropout: Float = 0.25) -> Architecture {
        Architecture(name: "clothing-cnn", input: contractInput, layers: [
            .conv2d(outputChannels: width, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
            .conv2d(outputChannels: width, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
            .maxPool(size: 2),
            .conv2d(outputChannels: 2 * width, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
            .conv2d(outputChannels: 2 * width, kernel: 3, padding: 1, bias: false), .batchNorm(epsilon: 1e-5), .relu,
            .maxPool(size: 2),
            .flatten, .dense(outputs: hidden), .relu, .dropout(rate: dropout),
            .dense(outputs: ModelContract.labels.count),
        ])
    }

    /// The contract's input image: its channels and side.
    public static let contractInput = FeatureShape(channels: ModelContract.channels, height: ModelContract.side,
                                                   width: ModelContract.side)

    /// Trainable parameters (weights, biases, batch-norm scale and shift;
    /// not the running statistics).
    public var parameterCount: Int { NetworkPlan(self).parameterCount }

    /// Multiply-adds of one image's forward pass.
    public var multiplyAddsPerImage: Int { NetworkPlan(self).multiplyAddsPerImage }

    /// The number of outputs (classes) of the last layer.
    public var outputCount: Int { NetworkPlan(self).layers.last?.output.count ?? input.count }

    /// One line: the layers in order.
    public var summary: String {
        "input\(input) " + layers.map(\.summary).joined(separator: " ")
    }
}
