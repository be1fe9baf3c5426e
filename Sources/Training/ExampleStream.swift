/// The examples of each epoch: every Fashion-MNIST training index once, as
/// many photo draws as the photo share asks for, and as many soft-target
/// draws as their share asks for; all shuffled together by the trainer's
/// generator. Examples are numbered Fashion-MNIST first, then photos
/// (`fashionCount + photo`), then soft targets (`fashionCount + photos + j`).
///
/// Photos without weights, and soft targets, are drawn in turn from an order
/// reshuffled whenever it runs out, so each is seen about equally often
/// however few there are. Weighted photos are drawn independently, each with
/// probability proportional to its weight. Without weights and soft targets
/// the generator is called exactly as the trainer always called it, so the
/// models it made stay the same.
public struct ExampleStream: Sendable {
    public let fashion: [Int]
    public let fashionCount: Int
    public let photos: Int
    public let softTargets: Int
    public let photosPerEpoch: Int
    public let softTargetsPerEpoch: Int
    /// Running sums of the photo weights, when weighted.
    private let cumulativeWeights: [Double]?
    private var photoTurns = Turns()
    private var softTurns = Turns()

    public init(fashion: [Int], fashionCount: Int, photos: Int, photoShare: Double, photoWeights: [Double]? = nil,
         softTargets: Int = 0, softTargetShare: Double = 0) {
        self.fashion = fashion
        self.fashionCount = fashionCount
        self.photos = photos
        self.softTargets = softTargets
        // A pool's draws per epoch: its share of the whole epoch, the rest being Fashion-MNIST;
        // without Fashion-MNIST, each pool once over.
        let rest = 1 - (photos == 0 ? 0 : photoShare) - (softTargets == 0 ? 0 : softTargetShare)
        func draws(_ pool: Int, _ share: Double) -> Int {
            if pool == 0 { return 0 }
            if fashion.isEmpty { return pool }
            if share <= 0 { return 0 }
            // At least one: a share too small for a short epoch (--limit) rounded to no draw at
            // all, and the photos the model records as learned were never seen.
            return max(1, Int((share / rest * Double(fashion.count)).rounded()))
        }
        photosPerEpoch = draws(photos, photoShare)
        softTargetsPerEpoch = draws(softTargets, softTargetShare)
        if let photoWeights, photos > 0 {
            var sum = 0.0
            cumulativeWeights = photoWeights.map { sum += max($0, 0); return sum }
            precondition(sum > 0, "photo weights add up to nothing")
        } else {
            cumulativeWeights = nil
        }
    }

    public var perEpoch: Int { fashion.count + photosPerEpoch + softTargetsPerEpoch }

    public mutating func nextEpoch(_ generator: inout SeededGenerator) -> [Int] {
        var order = fashion
        order.reserveCapacity(perEpoch)
        for _ in 0..<photosPerEpoch {
            order.append(fashionCount + nextPhoto(&generator))
        }
        for _ in 0..<softTargetsPerEpoch {
            order.append(fashionCount + photos + softTurns.next(of: softTargets, &generator))
        }
        generator.shuffle(&order)
        return order
    }

    private mutating func nextPhoto(_ generator: inout SeededGenerator) -> Int {
        guard let cumulative = cumulativeWeights else { return photoTurns.next(of: photos, &generator) }
        // 53 random bits: a uniform draw in [0, total).
        let u = Double(generator.next() >> 11) / Double(1 << 53) * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > u { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Indices 0..<count in a shuffled order, reshuffled whenever it runs out.
    private struct Turns: Sendable {
        var order: [Int] = []
        var cursor = 0

        mutating func next(of count: Int, _ generator: inout SeededGenerator) -> Int {
            if cursor == order.count {
                order = Array(0..<count)
                generator.shuffle(&order)
                cursor = 0
            }
            cursor += 1
            return order[cursor - 1]
        }
    }
}
