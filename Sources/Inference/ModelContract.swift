/// What a caller requires of a model before using it: the function to call,
/// its one input and one output with their shapes (batch dimension `-1`), and
/// how many labels the file must carry.
public struct ModelContract: Sendable, Equatable {
    public var function: String
    public var input: TensorSignature
    public var output: TensorSignature
    /// `nil` when the caller does not care about labels.
    public var labelCount: Int?

    public init(function: String, input: TensorSignature, output: TensorSignature, labelCount: Int?) {
        self.function = function
        self.input = input
        self.output = output
        self.labelCount = labelCount
    }

    /// The project's contract: `main` maps `image` `[N,1,28,28]` (grayscale
    /// in 0...1) to `logits` `[N,10]`, with ten labels.
    public static let standard = ModelContract(
        function: "main",
        input: TensorSignature(name: "image", shape: [-1, 1, 28, 28]),
        output: TensorSignature(name: "logits", shape: [-1, 10]),
        labelCount: 10)
}
