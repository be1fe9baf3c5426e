/// What an `.aimodel` file says about itself: identity, labels, and the layer
/// graph of its function `main`. Stored as JSON strings in the safetensors
/// `__metadata__` map; see docs/model-format.md.
public struct ModelDescription: Codable, Sendable, Equatable {
    public static let currentFormatVersion = 1

    public var name: String
    public var version: String
    public var labels: [String]
    /// Functions by name; the contract asks for exactly one, `main`.
    public var functions: [String: FunctionDescription]
    /// Free-form facts about how the model was made (architecture, data,
    /// epochs, seed, test accuracy). Written by the trainer, shown by `model info`.
    public var training: [String: String]

    public init(name: String, version: String, labels: [String],
                functions: [String: FunctionDescription], training: [String: String] = [:]) {
        self.name = name
        self.version = version
        self.labels = labels
        self.functions = functions
        self.training = training
    }
}

/// A function of the model: named inputs and outputs and the layers between.
public struct FunctionDescription: Codable, Sendable, Equatable {
    public var inputs: [TensorSignature]
    public var outputs: [TensorSignature]
    /// Layers in execution order; each reads earlier values by name.
    public var layers: [Layer]

    public init(inputs: [TensorSignature], outputs: [TensorSignature], layers: [Layer]) {
        self.inputs = inputs
        self.outputs = outputs
        self.layers = layers
    }
}

/// A named input or output. `-1` in `shape` stands for the batch dimension.
public struct TensorSignature: Codable, Sendable, Equatable {
    public var name: String
    public var shape: [Int]

    public init(name: String, shape: [Int]) {
        self.name = name
        self.shape = shape
    }
}

/// One operation of the graph. Values flow by name: a layer reads `inputs`
/// (function inputs or earlier layers' outputs) and writes `output`.
/// Weights are named tensors of the file; conventions follow PyTorch:
/// convolution weight `[out, in, kh, kw]`, dense weight `[out, in]`.
public struct Layer: Codable, Sendable, Equatable {
    public enum Operation: String, Codable, Sendable, CaseIterable {
        case conv2d, batchNorm = "batchnorm", relu, maxPool = "maxpool", avgPool = "avgpool",
             globalAvgPool = "globalavgpool", flatten, dense, dropout, add

        /// Decodes the name, reporting an unknown one by name (the reader
        /// turns this into `ModelError.unknownOperation`).
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let operation = Operation(rawValue: name) else { throw UnknownOperation(name: name) }
            self = operation
        }
    }

    public var op: Operation
    public var name: String
    public var inputs: [String]
    public var output: String
    /// conv2d and dense: weight and bias tensors (bias optional).
    public var weight: String?
    public var bias: String?
    /// batchnorm: per-channel tensors `[C]` and epsilon.
    public var gamma: String?
    public var beta: String?
    public var mean: String?
    public var variance: String?
    public var epsilon: Float?
    /// conv2d and pooling: square kernel (pooling only; conv reads it from the
    /// weight), stride, zero padding on every side.
    public var kernel: Int?
    public var stride: Int?
    public var padding: Int?
    /// dropout: the training-time rate; identity at inference.
    public var rate: Float?

    public init(op: Operation, name: String, inputs: [String], output: String,
                weight: String? = nil, bias: String? = nil,
                gamma: String? = nil, beta: String? = nil, mean: String? = nil,
                variance: String? = nil, epsilon: Float? = nil,
                kernel: Int? = nil, stride: Int? = nil, padding: Int? = nil, rate: Float? = nil) {
        self.op = op
        self.name = name
        self.inputs = inputs
        self.output = output
        self.weight = weight
        self.bias = bias
        self.gamma = gamma
        self.beta = beta
        self.mean = mean
        self.variance = variance
        self.epsilon = epsilon
        self.kernel = kernel
        self.stride = stride
        self.padding = padding
        self.rate = rate
    }
}

/// Thrown while decoding a layer whose `op` this runtime does not know.
struct UnknownOperation: Error {
    var name: String
}
