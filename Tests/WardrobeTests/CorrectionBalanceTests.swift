import Testing
import Training
@testable import Wardrobe

/// How a fine-tune draws the person's examples beside the parent's rehearsed
/// photos (`ModelTraining.photoWeights`).
@Suite struct CorrectionBalanceTests {
    static func examples(_ labels: [Int: Int]) -> LabelledTensors {
        var tensors = LabelledTensors()
        for (label, count) in labels.sorted(by: { $0.key < $1.key }) {
            for _ in 0..<count { tensors.append([Float](repeating: 0, count: 784), accepted: [label]) }
        }
        return tensors
    }

    /// A label given 30 times is drawn about 3.2 times as much, all told, as
    /// one given 3 (the square root of 10), not 10 times; a label given once is
    /// not drawn as much as one given 30.
    @Test func aLabelGivenOftenIsDrawnAsTheRootOfItsCount() throws {
        let person = Self.examples([4: 30, 6: 3, 2: 1])
        let weights = try #require(ModelTraining.photoWeights(person: person, others: LabelledTensors(), rehearsed: false,
                                                              keeping: .init()))
        let pullover = weights[0..<1].reduce(0, +), coat = weights[1..<31].reduce(0, +), shirt = weights[31..<34].reduce(0, +)
        #expect(abs(coat / shirt - 10.0.squareRoot()) < 1e-9, "Coat \(coat) against Shirt \(shirt)")
        #expect(abs(coat / pullover - 30.0.squareRoot()) < 1e-9, "Coat \(coat) against Pullover \(pullover)")
        #expect(abs(weights.reduce(0, +) - 34) < 1e-9, "without a rehearsal each example weighs 1 on average")
    }

    /// Beside a rehearsal the person's examples take the stated share of the
    /// draws, however many rehearsed photos there are.
    @Test func besideARehearsalThePersonTakesTheirShare() throws {
        let keeping = ModelTraining.Keeping()
        let weights = try #require(ModelTraining.photoWeights(person: Self.examples([0: 10, 1: 10]), others: Self.examples([2: 900, 3: 80]),
                                                              rehearsed: true, keeping: keeping))
        let person = weights[0..<20].reduce(0, +), all = weights.reduce(0, +)
        #expect(abs(person / all - keeping.correctionShare) < 1e-9)
        // The rehearsal is balanced too: 900 photos of one label against 80 of another
        // are drawn as the square roots of their counts, 30 against about 8.9.
        let many = weights[20..<920].reduce(0, +), few = weights[920...].reduce(0, +)
        #expect(abs(many / few - (900.0 / 80).squareRoot()) < 1e-9, "\(many) against \(few)")
    }

    /// Balanced labels and no rehearsal: every photo is drawn in turn, as before.
    @Test func balancedLabelsWithoutARehearsalDrawInTurn() {
        #expect(ModelTraining.photoWeights(person: Self.examples([0: 5, 1: 5]), others: Self.examples([2: 30, 3: 10]), rehearsed: false,
                                           keeping: .init()) == nil)
    }
}
