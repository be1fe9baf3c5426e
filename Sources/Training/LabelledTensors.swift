/// Prepared 28x28 inputs (photos made into the contract's tensors) with the
/// labels that count as right for each: one label for most, several where a
/// folder of photos maps to more than one (shoes: Sandal, Sneaker or Ankle
/// boot). The trainer learns from them beside Fashion-MNIST.
public struct LabelledTensors: Sendable, Equatable {
    public static let valuesPerExample = FashionMNIST.pixelsPerImage

    /// `count * 784` values in 0...1, one example after another.
    public private(set) var values: [Float] = []
    /// One mask per example: bit k set when label k is accepted.
    public private(set) var accepted: [UInt64] = []

    public init() {}

    public var count: Int { accepted.count }
    public var isEmpty: Bool { accepted.isEmpty }

    public mutating func append(_ tensor: [Float], accepted labels: [Int]) {
        precondition(tensor.count == Self.valuesPerExample, "a tensor has 28x28 values")
        precondition(!labels.isEmpty && labels.allSatisfy { (0..<64).contains($0) }, "accepted labels must be 0...63")
        values += tensor
        accepted.append(labels.reduce(UInt64(0)) { $0 | SoftmaxCrossEntropy.mask(label: $1) })
    }

    public mutating func append(contentsOf other: LabelledTensors) {
        values += other.values
        accepted += other.accepted
    }

    /// The examples at `indices`, in that order.
    public func subset(_ indices: some Sequence<Int>) -> LabelledTensors {
        var result = LabelledTensors()
        for i in indices {
            result.values += values[i * Self.valuesPerExample..<(i + 1) * Self.valuesPerExample]
            result.accepted.append(accepted[i])
        }
        return result
    }

    public func acceptedLabels(_ index: Int) -> [Int] {
        (0..<64).filter { accepted[index] & (1 << $0) != 0 }
    }

    public func isAccepted(_ label: Int, at index: Int) -> Bool {
        accepted[index] & (1 << label) != 0
    }
}
