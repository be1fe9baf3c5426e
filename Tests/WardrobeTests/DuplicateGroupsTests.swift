import Catalogue
import SeededRandom
import Testing
@testable import Wardrobe

/// `duplicates` compares only the pairs `FingerprintBands` finds: its groups must be exactly
/// those of comparing every pair, whatever the rule's distance, with and without garments and
/// crops, colours that differ and pairs a person dismissed.
@Suite struct DuplicateGroupsTests {
    /// Photos saved again: each source a few times, each copy either the source's whole picture
    /// or one of its crops with 0 to `spread` bits flipped (a photo cropped), its garment 0 to
    /// `spread` bits from the source's garment or, for half the cropped copies, from one of its
    /// garment's crops (the crop cut the garment), so that pairs fall on both sides of every
    /// distance, crop distance and garment distance; a fifth without a garment, a tenth without
    /// crops (imported before they were taken), colours from three names or none.
    static func images(_ sources: Int, spread: Int, seed: UInt64) -> [FingerprintedImage] {
        var random = SplitMix64(seed: seed)
        var images: [FingerprintedImage] = []
        func flipped(_ bits: UInt64, _ count: Int) -> UInt64 {
            var bits = bits
            for _ in 0..<count { bits ^= 1 << (random.next() % 64) }
            return bits
        }
        func crops(of whole: UInt64) -> [UInt64] {
            random.next() % 10 == 0 ? [] : (0..<10).map { _ in flipped(whole, 4 + Int(random.next() % 12)) }
        }
        for _ in 0..<sources {
            let whole = random.next(), garment = random.next()
            let sourceCrops = crops(of: whole), sourceGarmentCrops = crops(of: garment)
            let colour = ["blue", "black", nil][Int(random.next() % 3)]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let hasGarment = random.next() % 5 != 0
                let cropped = random.next() % 3 == 0 && !sourceCrops.isEmpty
                let flips = Int(random.next() % UInt64(spread / 2 + 1))
                let copy = flipped(cropped ? sourceCrops[Int(random.next() % 10)] : whole, flips)
                // Saved again, its crops are near the source's; cropped, they are its own.
                let copyCrops = cropped || random.next() % 10 == 0 ? crops(of: copy) : sourceCrops.map { flipped($0, flips) }
                let garmentCut = cropped && random.next() % 2 == 0 && !sourceGarmentCrops.isEmpty
                let copyGarment = flipped(garmentCut ? sourceGarmentCrops[Int(random.next() % 10)] : garment,
                                          Int(random.next() % UInt64(spread + 1)))
                let fingerprint = StoredFingerprint(whole: copy, garment: hasGarment ? copyGarment : nil, crops: copyCrops,
                                                    garmentCrops: hasGarment ? crops(of: copyGarment) : [])
                let ownColour = random.next() % 10 == 0 ? "red" : colour
                images.append(FingerprintedImage(id: ImageID(Int64(images.count + 1)), fingerprint: fingerprint, colour: ownColour))
            }
        }
        return images
    }

    @Test(arguments: [0, 6, 12, 16, 20, 30])
    func theBandsFindTheGroupsThatComparingEveryPairFinds(distance: Int) {
        let images = Self.images(700, spread: distance + 8, seed: UInt64(distance) + 1)
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

    @Test func everyPairWithinTheCropLimitIsACandidate() {
        let limit = DuplicateFinder.Rule.cropLimit
        let images = Self.images(500, spread: limit + 2, seed: 1_000)
        var candidates = Set<[Int]>()
        FingerprintBands.candidatePairs(images.map(\.fingerprint), cropLimit: limit) { candidates.insert([$0, $1]) }
        var within = 0, throughACrop = 0
        for i in images.indices {
            for j in (i + 1)..<images.count {
                let (a, b) = (images[i].fingerprint, images[j].fingerprint)
                guard DuplicateFinder.cropDistance(a, b) <= limit else { continue }
                within += 1
                if (a.whole ^ b.whole).nonzeroBitCount > limit { throughACrop += 1 }
                #expect(candidates.contains([i, j]), "\(i) and \(j) are within \(limit) and not found")
            }
        }
        #expect(within > 100)
        #expect(throughACrop > 20, "pairs near only through a crop are among them")
        #expect(candidates.count < images.count * (images.count - 1) / 20, "the bands leave most pairs out")
    }

    /// A cropped copy: its whole picture far from its source's, near one of its crops.
    @Test func aCopyNearOnlyThroughACropIsTheSamePhoto() {
        let source = StoredFingerprint(whole: 0x0F0F_F0F0_1234_5678, garment: 0x1111_2222_3333_4444,
                                       crops: (0..<10).map { 0xAAAA_5555_0000_FFFF ^ UInt64($0) })
        let cropped = StoredFingerprint(whole: 0xAAAA_5555_0000_FFFF ^ 0b11_0000, garment: 0x1111_2222_3333_4444 ^ 0b111,
                                        crops: [])
        #expect(DuplicateFinder.cropDistance(source, cropped) == 2)
        #expect(DuplicateFinder.cropDistance(cropped, source) == 2)
        #expect(DuplicateFinder.distance(source, cropped) == 6)
        let far = StoredFingerprint(whole: 0xAAAA_5555_0000_FFFF ^ 0xFF00, garment: 0x1111_2222_3333_4444 ^ 0b111, crops: [])
        let images = [source, cropped, far].enumerated().map { FingerprintedImage(id: ImageID(Int64($0 + 1)), fingerprint: $1, colour: nil) }
        #expect(DuplicateFinder.groups(images, dismissed: [], rule: .standard) == [[0, 1]])
    }

    /// A copy cropped into the garment: its garment's fingerprint far from its source's, near
    /// one of its source's garment crops (either way round).
    @Test func aGarmentNearOnlyThroughAGarmentCropIsTheSamePhoto() {
        let source = StoredFingerprint(whole: 0x0F0F_F0F0_1234_5678, garment: 0x1111_2222_3333_4444,
                                       crops: (0..<10).map { 0xAAAA_5555_0000_FFFF ^ UInt64($0) },
                                       garmentCrops: (0..<10).map { 0x7777_0000_5555_AAAA ^ UInt64($0) << 8 })
        let cropped = StoredFingerprint(whole: 0xAAAA_5555_0000_FFFF ^ 0b1111_0000, garment: 0x7777_0000_5555_AAAA ^ 0b1,
                                        crops: [])
        #expect(DuplicateFinder.cropDistance(source, cropped) == 4)
        #expect(DuplicateFinder.garmentDistance(source, cropped) == 1)
        #expect(DuplicateFinder.garmentDistance(cropped, source) == 1)
        #expect(DuplicateFinder.distance(source, cropped) == 7)
        // The same copy, its source without garment crops (imported before they were kept).
        var before = source
        before.garmentCrops = []
        #expect(DuplicateFinder.distance(before, cropped) > DuplicateFinder.Rule.standard.distance)
        func images(_ fingerprints: [StoredFingerprint]) -> [FingerprintedImage] {
            fingerprints.enumerated().map { FingerprintedImage(id: ImageID(Int64($0 + 1)), fingerprint: $1, colour: nil) }
        }
        #expect(DuplicateFinder.groups(images([source, cropped]), dismissed: [], rule: .standard) == [[0, 1]])
        #expect(DuplicateFinder.groups(images([before, cropped]), dismissed: [], rule: .standard).isEmpty)
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
