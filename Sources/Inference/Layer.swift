/// One layer of the graph. Values flow by name: a layer reads `inputs`
/// (function inputs or earlier layers' outputs) and writes `output`; what it
/// computes, with its typed parameters, is its `operation`. On disk the
/// operation's name (`op`) and fields sit beside `name`, `inputs` and
/// `output` in one JSON object (docs/model-format.md). Weights are named
/// tensors of the file, in PyTorch's layouts.
public struct Layer: Codable, Sendable, Equatable {
    public var name: String
    public var inputs: [String]
    public var output: String
    public var operation: LayerOperation

    public init(_ operation: LayerOperation, name: String, inputs: [String], output: String) {
        self.operation = operation
        self.name = name
        self.inputs = inputs
        self.output = output
    }

    /// The operation's name in the file, e.g. `conv2d`.
    public var op: String { operation.name }

    private enum Keys: String, CodingKey { case op, name, inputs, output }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        inputs = try container.decode([String].self, forKey: .inputs)
        output = try container.decode(String.self, forKey: .output)
        operation = try LayerOperation(named: try container.decode(String.self, forKey: .op), from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(op, forKey: .op)
        try container.encode(name, forKey: .name)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(output, forKey: .output)
        try operation.encodeParameters(to: encoder)
    }
}

/// Thrown while decoding a layer whose `op` this runtime does not know.
struct UnknownOperation: Error {
    var name: String
}
