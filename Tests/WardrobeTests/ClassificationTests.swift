import Foundation
import Testing
@testable import Wardrobe

@Suite struct ClassificationTests {
    @Test func labelIsTheArgmaxAndConfidenceItsSoftmax() {
        var logits = [Float](repeating: 0, count: 10)
        logits[7] = 2
        let classification = Classification(logits: logits)
        #expect(classification.label == "Sneaker")
        #expect(classification.labelIndex == 7)
        let expected = Float(exp(2.0) / (exp(2.0) + 9))
        #expect(abs(classification.confidence - expected) < 1e-6)
    }

    /// Logits far beyond Float's exponent range still give a finite softmax.
    @Test func softmaxIsStableForHugeLogits() {
        let probabilities = Classification.softmax([1000, 999, -1000, 0, 0, 0, 0, 0, 0, 0])
        #expect(probabilities.allSatisfy { $0.isFinite })
        #expect(abs(probabilities.reduce(0, +) - 1) < 1e-5)
        #expect(abs(probabilities[0] - Float(1 / (1 + exp(-1.0)))) < 1e-5)
    }

    @Test func topKIsOrderedByProbability() {
        let logits: [Float] = [0, 5, 1, 4, 0, 0, 0, 0, 3, 0]
        let top = Classification(logits: logits).top(3)
        #expect(top.map(\.label) == ["Trouser", "Dress", "Bag"])
        #expect(top[0].probability > top[1].probability && top[1].probability > top[2].probability)
    }
}
