internal import Catalogue

/// What the model said about one image: the ten logits, the label (argmax)
/// and its confidence (numerically stable softmax, for display only).
public struct Classification: Sendable, Equatable {
    public let logits: [Float]
    public let labelIndex: Int
    public let confidence: Float

    public init(logits: [Float]) {
        precondition(logits.count == ClothingClassifier.labels.count, "expected \(ClothingClassifier.labels.count) logits, got \(logits.count)")
        self.logits = logits
        let probabilities = Classification.softmax(logits)
        labelIndex = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
        confidence = probabilities[labelIndex]
    }

    public var label: String { ClothingClassifier.labels[labelIndex] }

    /// Whether every logit is a finite number. A model whose weights overflow float32 on an
    /// image gives inf or nan there, from which no label or confidence follows.
    public var isFinite: Bool { logits.allSatisfy(\.isFinite) }

    /// What the catalogue stores of it; nil when its logits are not finite (`notFiniteReason`
    /// says why such an image is not classified).
    var stored: NewClassification? {
        isFinite ? NewClassification(logits: logits, label: labelIndex, confidence: Double(confidence)) : nil
    }

    /// Why an image whose logits are not finite is not classified.
    public static let notFiniteReason = "the model's output for it is not a finite number (a weight overflows float32 on this image)"

    /// The `k` most likely labels with their probabilities, best first.
    public func top(_ k: Int) -> [(label: String, probability: Float)] {
        let probabilities = Classification.softmax(logits)
        return probabilities.indices
            .sorted { probabilities[$0] > probabilities[$1] || (probabilities[$0] == probabilities[$1] && $0 < $1) }
            .prefix(max(0, k))
            .map { (ClothingClassifier.labels[$0], probabilities[$0]) }
    }

    /// Softmax with the maximum subtracted first, so large logits cannot overflow.
    public static func softmax(_ logits: [Float]) -> [Float] {
        guard let maximum = logits.max() else { return [] }
        let exponentials = logits.map { Float.exp($0 - maximum) }
        let sum = exponentials.reduce(0, +)
        return exponentials.map { $0 / sum }
    }
}

#if canImport(Glibc)
import Glibc
extension Float {
    static func exp(_ x: Float) -> Float { Glibc.expf(x) }
}
#elseif canImport(Darwin)
import Darwin
extension Float {
    static func exp(_ x: Float) -> Float { Darwin.expf(x) }
}
#endif
