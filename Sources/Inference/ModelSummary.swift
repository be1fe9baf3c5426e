/// What `wardrobe model info` shows about a model file: identity, size, the
/// input/output contract and how it was trained.
public struct ModelSummary: Sendable, Codable, Equatable {
    public var name: String
    public var version: String
    /// Trainable values: weights, biases, batch-norm scales and shifts (not
    /// the running statistics, which are measured, not learned).
    public var parameters: Int
    public var labels: [String]
    public var inputs: [TensorSignature]
    public var outputs: [TensorSignature]
    /// The operations of `main`, in order.
    public var layers: [String]
    /// The test accuracy the trainer recorded, if any and a finite number (the
    /// training record keeps the text as written).
    public var testAccuracy: Double?
    /// The training record as the file keeps it, with the images the model learned from
    /// listed under `learned_images` as a JSON array of SHA-256 hex strings, as files made
    /// before the `learned_images` tensor list them, so every file shows them one way.
    public var training: [String: String]

    enum CodingKeys: String, CodingKey {
        case name, version, parameters, labels, inputs, outputs, layers, training
        case testAccuracy = "test_accuracy"
    }

    public init(_ model: ModelFile) {
        let description = model.description
        let main = description.functions[ModelContract.standard.function]
        var trainable = Set<String>()
        for layer in main?.layers ?? [] {
            trainable.formUnion(layer.operation.learnedTensors)
        }
        name = description.name
        version = description.version
        parameters = trainable.reduce(0) { $0 + (model.tensors[$1]?.count ?? 0) }
        labels = description.labels
        inputs = main?.inputs ?? []
        outputs = main?.outputs ?? []
        layers = (main?.layers ?? []).map(\.op)
        // Only a number JSON can hold: "nan" from a file made elsewhere stopped `model info --json`.
        testAccuracy = description.training["test_accuracy"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        training = description.training
        if !model.learnedImageDigests.isEmpty,
           let learned = TrainingMetadata.learnedImages(in: description.training, digests: model.learnedImageDigests) {
            training[TrainingMetadata.Key.learnedImages] = "[" + learned.sorted().map { "\"\($0)\"" }.joined(separator: ",") + "]"
        }
    }
}
