/// What the runtime knows of one operation, kept in the operation's own file:
/// its name in the file, the weights it reads, the shape rule that checks a
/// layer and gives the shape of its output, and its lowering, which adds a
/// `LoweredKernel` to the graph (or fuses into the kernel before it). The
/// lowered kernel packs its weights, counts its FLOPs and makes the
/// `ProgramStep` that calls the C kernel.
protocol OperationDefinition: Sendable {
    /// The `op` of the file.
    var name: String { get }
    /// How many values the layer reads.
    var arity: Int { get }
    /// Weight tensors the layer reads.
    var tensors: [String] { get }
    /// The ones training learns; by default all of them.
    var learnedTensors: [String] { get }
    /// The identity at inference (dropout): its output is another name for its input.
    var isIdentityAtInference: Bool { get }
    /// Checks the layer's parameters and weights against the shapes of its
    /// inputs and returns the shape of its output.
    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape
    /// Adds the layer to the lowered graph. Runs after the check, so weights
    /// exist with the checked shapes.
    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph)
    /// Writes the parameters beside `op`, `name`, `inputs` and `output`.
    func encodeParameters(to encoder: any Encoder) throws
}

extension OperationDefinition {
    var arity: Int { 1 }
    var tensors: [String] { [] }
    var learnedTensors: [String] { tensors }
    var isIdentityAtInference: Bool { false }
    func encodeParameters(to encoder: any Encoder) throws {}
}

extension OperationDefinition where Self: Encodable {
    func encodeParameters(to encoder: any Encoder) throws { try encode(to: encoder) }
}

/// What a shape rule may ask of the graph check: the layer, for messages, and
/// its weights, each looked up, checked finite and counted once.
struct LayerCheck {
    /// The layer being checked.
    private(set) var layer = Layer(.relu, name: "", inputs: [], output: "")
    private let tensors: [String: NDArray]
    private var used: Set<String> = []
    /// Scalars in the tensors checked so far, each counted once.
    private(set) var parameterCount = 0

    init(tensors: [String: NDArray]) { self.tensors = tensors }

    mutating func start(_ layer: Layer) { self.layer = layer }

    /// A weight the layer names; it must exist and hold finite values.
    mutating func tensor(_ key: String) throws(ModelError) -> NDArray {
        guard let tensor = tensors[key] else { throw .missingTensor(key) }
        if let index = tensor.scalars.firstIndex(where: { !$0.isFinite }) {
            throw .badTensor(name: key, reason: "value \(index) is \(tensor.scalars[index]); weights must be finite")
        }
        if used.insert(key).inserted { parameterCount += tensor.count }
        return tensor
    }

    /// A weight that must have exactly `shape`.
    @discardableResult
    mutating func tensor(_ key: String, shape: [Int]) throws(ModelError) -> NDArray {
        let tensor = try tensor(key)
        guard tensor.shape == shape else {
            throw .shapeMismatch("tensor '\(key)' of layer '\(layer.name)' has shape \(tensor.shape), expected \(shape)")
        }
        return tensor
    }

    /// The channels, height and width of an input that must be an image.
    func image(_ shape: SampleShape) throws(ModelError) -> (channels: Int, height: Int, width: Int) {
        guard case .image(let c, let h, let w) = shape else {
            throw .shapeMismatch("layer '\(layer.name)' (\(layer.op)) needs an image [N,C,H,W], gets \(shape)")
        }
        return (c, h, w)
    }

    /// A parameter that is out of range, as a graph error naming the layer.
    func invalid(_ what: String) -> ModelError {
        .badGraph("layer '\(layer.name)' (\(layer.op)) \(what)")
    }
}

/// A checked layer as lowering sees it: identities resolved in its inputs,
/// and the shapes the check found.
struct LayerToLower {
    var inputs: [String]
    var output: String
    var inputShapes: [SampleShape]
    var shape: SampleShape
}
