import Catalogue
import SeededRandom
import Testing
@testable import Wardrobe

/// `SimilarFinder.nearest` reads the colours and logits of only the images whose fingerprints
/// could still bring them near: it must find what a sort of every image by the whole distance
/// finds, whatever the fingerprints, colours and logits.
@Suite struct SimilarFinderTests {
    static func catalogue(_ count: Int, seed: UInt64, related: Bool) -> (fingerprints: [(id: ImageID, fingerprint: StoredFingerprint)], facts: [ImageID: LookalikeFacts]) {
        var random = SplitMix64(seed: seed)
        var fingerprints: [(id: ImageID, fingerprint: StoredFingerprint)] = []
        var facts: [ImageID: LookalikeFacts] = [:]
        let base = random.next()
        for number in 1...count {
            let id = ImageID(Int64(number))
            // Related: every fingerprint a few bits from one, so that many tie and colours decide.
            let whole = related ? base ^ (1 << (random.next() % 64)) ^ (1 << (random.next() % 64)) : random.next()
            let garment: UInt64? = random.next() % 5 == 0 ? nil : (related ? base : random.next())
            fingerprints.append((id, StoredFingerprint(whole: whole, garment: garment)))
            let colours: [StoredColours.Share]? = random.next() % 7 == 0 ? nil
                : [.init(name: "x", share: 1, lightness: Double(random.next() % 100), a: Double(random.next() % 100) - 50, b: 0)]
            let logits: [Float]? = random.next() % 6 == 0 ? nil : (0..<10).map { _ in Float(random.next() % 1000) / 100 - 5 }
            facts[id] = LookalikeFacts(id: id, colours: colours, colour: nil, logits: logits, label: nil)
        }
        return (fingerprints, facts)
    }

    @Test(arguments: [false, true]) func findsWhatSortingEveryImageFinds(related: Bool) throws {
        let (fingerprints, facts) = Self.catalogue(3_000, seed: related ? 7 : 8, related: related)
        var rule = SimilarFinder.Rule.standard
        rule.examined = fingerprints.count
        for query in [fingerprints[0], fingerprints[1_234], fingerprints[2_999]] {
            var read = 0
            let found = try SimilarFinder.nearest(to: (query.fingerprint, facts[query.id]!), among: fingerprints, limit: 10, rule: rule) { ids in
                read += ids.count
                return ids.map { facts[$0]! }
            }
            let terms = SimilarFinder.Terms(facts[query.id]!)
            let everyOne = fingerprints.filter { $0.id != query.id }.map { image in
                (image.id, Double(SimilarFinder.bits(query.fingerprint, image.fingerprint)) / 128
                    + terms.distance(to: SimilarFinder.Terms(facts[image.id]!), rule: rule))
            }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(found.map(\.facts.id) == everyOne.prefix(10).map(\.0))
            #expect(zip(found.map(\.distance), everyOne.prefix(10).map(\.1)).allSatisfy { abs($0 - $1) < 1e-12 })
            if !related { #expect(read < fingerprints.count, "unrelated fingerprints leave most images unread") }
        }
    }

    @Test func examinesAtMostItsShareByFingerprints() throws {
        let (fingerprints, facts) = Self.catalogue(2_000, seed: 9, related: false)
        var rule = SimilarFinder.Rule.standard
        rule.examined = 100
        var read: Set<ImageID> = []
        let query = fingerprints[5]
        let found = try SimilarFinder.nearest(to: (query.fingerprint, facts[query.id]!), among: fingerprints, limit: 10, rule: rule) { ids in
            read.formUnion(ids)
            return ids.map { facts[$0]! }
        }
        #expect(found.count == 10 && read.count <= 100)
        let nearestBits = fingerprints.filter { $0.id != query.id }.map { SimilarFinder.bits(query.fingerprint, $0.fingerprint) }.sorted()
        #expect(read.allSatisfy { SimilarFinder.bits(query.fingerprint, fingerprints[Int($0.rawValue) - 1].fingerprint) <= nearestBits[99] })
    }
}
