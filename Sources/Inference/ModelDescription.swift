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

    /// The longest name or version a model may have, in characters: every list and page
    /// shows them, and a catalogue stores them with every run.
    public static let maximumIdentityLength = 100

    /// Why `text` cannot be a model's name or version, or nil when it can: too long, or
    /// holding a control character (a line break would split a line of output).
    public static func problem(withIdentity text: String) -> String? {
        if text.count > maximumIdentityLength {
            return "is \(text.count) characters long, more than \(maximumIdentityLength)"
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character"
        }
        return nil
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
