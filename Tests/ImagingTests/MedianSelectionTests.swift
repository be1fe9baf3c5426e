import Imaging
import SeededRandom
import Testing

/// The garment's median lightness and a fingerprint's median coefficient are found by
/// selection, not by sorting: it must be the value sorting gives, whatever the order, ties and
/// length of the values.
@Suite struct MedianSelectionTests {
    @Test func selectionFindsWhatSortingFinds() {
        var random = SplitMix64(seed: 5)
        for length in [1, 2, 3, 4, 5, 8, 31, 100, 2_311] {
            for levels in [2, 7, 1_000_000] {
                let values = (0..<length).map { _ in Double(random.next() % UInt64(levels)) / 7 }
                let sorted = values.sorted()
                for rank in Set([0, length / 2, length - 1, Int(random.next() % UInt64(length))]) {
                    var shuffled = values
                    #expect(selectRank(rank, in: &shuffled) == sorted[rank], "length \(length), rank \(rank)")
                    #expect(shuffled.sorted() == sorted, "selection only reorders")
                }
            }
        }
    }
}
