import Foundation

/// Prepared 28x28 inputs whose targets are a parent model's probabilities,
/// not labels: what a fine-tune keeps of the parent on images nobody
/// labelled (knowledge distillation). The trainer learns from them beside
/// Fashion-MNIST and labelled photos; `SoftmaxCrossEntropy` says how.
public struct SoftTargets: Sendable, Equatable {
    public static let valuesPerExample = FashionMNIST.pixelsPerImage
    public static let classes = FashionMNIST.labels.count

    /// `count * 784` values in 0...1, one example after another.
    public private(set) var values: [Float] = []
    /// `count * 10` probabilities, each row summing to 1.
    public private(set) var probabilities: [Float] = []

    public init() {}

    public var count: Int { probabilities.count / Self.classes }
    public var isEmpty: Bool { probabilities.isEmpty }

    /// Adds an example whose target is `softmax(logits / temperature)`.
    public mutating func append(_ tensor: [Float], logits: [Float], temperature: Float) {
        precondition(tensor.count == Self.valuesPerExample, "a tensor has 28x28 values")
        precondition(logits.count == Self.classes && temperature > 0, "ten logits and a positive temperature")
        values += tensor
        probabilities += Self.softmax(logits, temperature: temperature)
    }

    /// The argmax of example `index`'s target: the label the parent gave it.
    public func label(_ index: Int) -> Int {
        let row = probabilities[index * Self.classes..<(index + 1) * Self.classes]
        return row.indices.max { row[$0] < row[$1] }! - index * Self.classes
    }

    /// Numerically stable softmax of `logits / temperature`.
    public static func softmax(_ logits: [Float], temperature: Float) -> [Float] {
        let top = logits.max()! / temperature
        let exps = logits.map { Foundation.exp($0 / temperature - top) }
        let sum = exps.reduce(0, +)
        return exps.map { $0 / sum }
    }
}
