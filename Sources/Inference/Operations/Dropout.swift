// dropout: x of any shape; y = x at inference (the rate is for training).
// Lowers to nothing: its output is another name for its input.

extension LayerOperation {
    /// Dropout, the identity at inference.
    public struct Dropout: Codable, Sendable, Equatable {
        /// The training-time rate, 0 <= rate < 1.
        public var rate: Float?

        public init(rate: Float? = nil) { self.rate = rate }
    }
}

extension LayerOperation.Dropout: OperationDefinition {
    var name: String { "dropout" }
    var isIdentityAtInference: Bool { true }

    func outputShape(_ inputs: [SampleShape], _ check: inout LayerCheck) throws(ModelError) -> SampleShape {
        if let rate, !(rate >= 0 && rate < 1) { throw check.invalid("has rate \(rate); need 0 <= rate < 1") }
        return inputs[0]
    }

    func lower(_ layer: LayerToLower, into graph: inout LoweredGraph) {}
}
