/// The runtime's operations: one flat list, each case carrying its typed
/// parameters. Everything else about an operation (its shape rule, lowering,
/// weight packing, FLOP count and kernel call) lives in its own file under
/// `Operations/`, which states its shapes first.
///
/// Adding an operation: a case here (and a line in `definition` and in
/// `init(named:from:)`), its file in `Operations/`, and its kernel in
/// `CInferenceKernels` (the `.c` file and the header).
public enum LayerOperation: Sendable, Equatable {
    case conv2d(Conv2D)
    case batchNorm(BatchNorm)
    case relu
    case maxPool(Pooling)
    case avgPool(Pooling)
    case globalAvgPool
    case flatten
    case dense(Dense)
    case dropout(Dropout)
    case add

    /// The operation's rules, for the graph check and specialisation.
    var definition: any OperationDefinition {
        switch self {
        case .conv2d(let parameters): parameters
        case .batchNorm(let parameters): parameters
        case .relu: ReLUDefinition()
        case .maxPool(let parameters): PoolingDefinition(parameters: parameters, max: true)
        case .avgPool(let parameters): PoolingDefinition(parameters: parameters, max: false)
        case .globalAvgPool: GlobalAvgPoolDefinition()
        case .flatten: FlattenDefinition()
        case .dense(let parameters): parameters
        case .dropout(let parameters): parameters
        case .add: AddDefinition()
        }
    }

    /// Decodes the parameters of the operation named `name` from the layer's
    /// JSON object, reporting an unknown name by name (the reader turns it
    /// into `ModelError.unknownOperation`).
    init(named name: String, from decoder: any Decoder) throws {
        switch name {
        case "conv2d": self = .conv2d(try Conv2D(from: decoder))
        case "batchnorm": self = .batchNorm(try BatchNorm(from: decoder))
        case "relu": self = .relu
        case "maxpool": self = .maxPool(try Pooling(from: decoder))
        case "avgpool": self = .avgPool(try Pooling(from: decoder))
        case "globalavgpool": self = .globalAvgPool
        case "flatten": self = .flatten
        case "dense": self = .dense(try Dense(from: decoder))
        case "dropout": self = .dropout(try Dropout(from: decoder))
        case "add": self = .add
        default: throw UnknownOperation(name: name)
        }
    }

    /// The name written as `op`.
    public var name: String { definition.name }

    /// Weight tensors the layer reads.
    public var tensors: [String] { definition.tensors }

    /// The tensors training learns (weights, biases, batch-norm scale and
    /// shift; not running statistics).
    public var learnedTensors: [String] { definition.learnedTensors }

    func encodeParameters(to encoder: any Encoder) throws {
        try definition.encodeParameters(to: encoder)
    }
}
