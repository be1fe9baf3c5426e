import ClothingContract

/// What a caller requires of a model before using it: the function to call,
/// its one input and one output with their shapes (batch dimension `-1`), and
/// how many labels the file must carry.
///
/// The project's contract (`Contract`: the side of the square grayscale input,
/// its channel count and the ten labels in index order) is declared in its own
/// small module and offered here, because model files carry it. Everything else
/// (the classifier, the trainer's architecture, the data-set reader) derives
/// from these; the prep recipes take it from `Contract` itself. The runtime's
/// planning and kernels never read them.
public struct ModelContract: Sendable, Equatable {
    /// Side of the square input image, in pixels.
    public static let side = Contract.side
    /// Channels of the input image: one, grayscale.
    public static let channels = Contract.channels
    /// Values of one input image: channels x side x side.
    public static let valuesPerImage = Contract.valuesPerImage
    /// The labels, index 0..<10 in this order: Fashion-MNIST's classes.
    public static let labels = Contract.labels

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

    /// The project's contract: `main` maps `image` `[N, channels, side, side]`
    /// (grayscale in 0...1) to `logits` `[N, labels.count]`, with that many labels.
    public static let standard = ModelContract(
        function: "main",
        input: TensorSignature(name: "image", shape: [-1, channels, side, side]),
        output: TensorSignature(name: "logits", shape: [-1, labels.count]),
        labelCount: labels.count)
}
