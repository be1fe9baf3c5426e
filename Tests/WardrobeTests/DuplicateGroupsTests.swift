import Catalogue
import SeededRandom
import Testing
@testable import Wardrobe

/// `duplicates` compares only the pairs `FingerprintBands` finds: its groups must be exactly
/// those of comparing every pair, whatever the rule's distance, with and without garments,
/// colours that differ and pairs a person dismissed.
@Suite struct DuplicateGroupsTests {
    /// Photos saved again: each source a few times, each copy 0 to `spread` bits from it in each
    /// fingerprint, so that pairs fall on both sides of every distance tried; a fifth without a
    /// garment, colours from three names or none.
    static func images(_ sources: Int, spread: Int, seed: UInt64) -> [FingerprintedImage] {
        var random = SplitMix64(seed: seed)
        var images: [FingerprintedImage] = []
        func flipped(_ bits: UInt64, _ count: Int) -> UInt64 {
            var bits = bits
            for _ in 0..<count { bits ^= 1 << (random.next() % 64) }
            return bits
        }
        for _ in 0..<sources {
            let whole = random.next(), garment = random.next()
            let colour = ["blue", "black", nil][Int(random.next() % 3)]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let hasGarment = random.next() % 5 != 0
                let fingerprint = StoredFingerprint(whole: flipped(whole, Int(random.next() % UInt64(spread + 1))),
                                                    garment: hasGarment ? flipped(garment, Int(random.next() % UInt64(spread + 1))) : nil)
                let ownColour = random.next() % 10 == 0 ? "red" : colour
                images.append(FingerprintedImage(id: ImageID(Int64(images.count + 1)), fingerprint: fingerprint, colour: ownColour))
            }
        }
        return images
    }

    @Test(arguments: [0, 3, 8, 10, 11, 15, 20])
    func theBandsFindTheGroupsThatComparingEveryPairFinds(distance: Int) {
        let images = Self.images(700, spread: 2 * distance + 4, seed: UInt64(distance) + 1)
        var random = SplitMix64(seed: 99)
        // Pairs of neighbours, which are often copies of one photo.
        let dismissed = Set((0..<60).map { _ in
            let i = Int(random.next() % UInt64(images.count - 1))
            return DismissedPair(images[i].id, images[i + 1].id)
        })
        let rule = DuplicateFinder.Rule(distance: distance)
        let everyPair = DuplicateFinder.groups(images, dismissed: dismissed, rule: rule, banded: false)
        let banded = DuplicateFinder.groups(images, dismissed: dismissed, rule: rule)
        #expect(banded == everyPair)
        #expect(everyPair.count > 20, "the set has groups to find at distance \(distance)")
    }

    @Test(arguments: [0, 5, 10, 11])
    func everyPairWithinTheRuleIsACandidate(distance: Int) {
        let images = Self.images(500, spread: 2 * distance + 4, seed: 1_000 + UInt64(distance))
        var candidates = Set<[Int]>()
        let banded = FingerprintBands.candidatePairs(images, distance: distance) { candidates.insert([$0, $1]) }
        #expect(banded)
        var within = 0
        for i in images.indices {
            for j in (i + 1)..<images.count where DuplicateFinder.distance(images[i].fingerprint, images[j].fingerprint) <= distance {
                within += 1
                #expect(candidates.contains([i, j]), "\(i) and \(j) are within \(distance) and not found")
            }
        }
        #expect(within > 10)
        #expect(candidates.count < images.count * (images.count - 1) / 20, "the bands leave most pairs out")
    }

    @Test func aRuleTooWideForBandsIsComparedPairByPair() {
        let images = Self.images(50, spread: 40, seed: 5)
        #expect(!FingerprintBands.candidatePairs(images, distance: 16) { _, _ in })
        let rule = DuplicateFinder.Rule(distance: 16)
        #expect(DuplicateFinder.groups(images, dismissed: [], rule: rule) == DuplicateFinder.groups(images, dismissed: [], rule: rule, banded: false))
    }
}

/// The colour guard: the same fingerprints group when the garments' largest measured colours
/// are near in CIELAB even under two names (a brightened black garment measures grey), not when
/// they are far, and not when a person gave them two colours.
@Suite struct DuplicateColourGuardTests {
    static func pair(_ a: (String, [Double], Bool), _ b: (String, [Double], Bool)) -> [[Int]] {
        let fingerprint = StoredFingerprint(whole: 0x0F0F_F0F0_1234_5678, garment: 0x1111_2222_3333_4444)
        let images = [a, b].enumerated().map { index, colour in
            FingerprintedImage(id: ImageID(Int64(index + 1)), fingerprint: fingerprint, colour: colour.0,
                               colourByPerson: colour.2, lab: colour.1)
        }
        return DuplicateFinder.groups(images, dismissed: [], rule: .standard)
    }

    @Test func nearColoursUnderTwoNamesGroupFarOnesAndAPersonsTwoNamesDoNot() {
        #expect(Self.pair(("black", [22, 0, 1], false), ("grey", [38, 1, 2], false)) == [[0, 1]])
        #expect(Self.pair(("blue", [40, 10, -45], false), ("red", [45, 60, 35], false)).isEmpty)
        #expect(Self.pair(("black", [22, 0, 1], true), ("grey", [22, 0, 1], false)).isEmpty)
        #expect(Self.pair(("black", [22, 0, 1], true), ("black", [60, 0, 1], false)) == [[0, 1]])
    }
}
