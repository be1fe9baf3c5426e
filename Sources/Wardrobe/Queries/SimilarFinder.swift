internal import Catalogue
import Foundation

/// `wardrobe similar IMAGE`: the images nearest one image by what the catalogue holds of each,
/// its perceptual fingerprints (`ImageFingerprint`), its garment's measured colour and the
/// label probabilities of its current classification. An image's distance from the query, from
/// 0 (the same in all three) to 1.5, is the sum of:
/// 1. the bits their fingerprints differ in, whole picture and garment, over the 128 compared
///    (the whole pictures' twice when either has no garment): 0 to 1;
/// 2. a quarter of the CIELAB distance between their garments' main colours, over 100 (at most
///    100): 0 to 0.25;
/// 3. a quarter of the total variation distance between their label probabilities (the softmax
///    of the stored logits): 0 to 0.25.
/// A fact either image lacks counts half its term. The fingerprints weigh most, so a copy of
/// the photo comes first (98% of the validation pair set's queries, docs/duplicates.md); the
/// colour and the label order what looks alike after it.
///
/// The fingerprints of every image come from one index (a few milliseconds for 100,000); as
/// the other terms only add, images are taken in the order of their fingerprints' term and the
/// colours and logits read for them a few hundred at a time, until the next one's fingerprints
/// alone put it further than the `limit`th found, or `Rule.examined` have been looked at.
public struct SimilarFinder {
    public struct Rule: Sendable, Equatable {
        /// Weights of the colour and label terms (the fingerprints' is 1).
        public var colourWeight = 0.25
        public var labelWeight = 0.25
        /// The most images whose colours and logits are read for one query: the nearest by
        /// fingerprints. Where it binds the answer is the nearest among those.
        public var examined = 500

        public init() {}

        public static let standard = Rule()
    }

    /// One image near the query.
    public struct Neighbour: Sendable, Encodable, Equatable {
        public var image: Int64
        public var sha256: String
        public var path: String?
        /// The path's state: "present", "missing" or "none" (see `ShownPath`).
        public var pathState: String
        /// The effective label (a person's, else the model's); nil when it has neither.
        public var label: String?
        public var colour: String?
        /// See `SimilarFinder`, rounded to thousandths.
        public var distance: Double
        /// The bits their fingerprints differ in (of 128).
        public var bits: Int

        /// "PATH (missing)" as `list` writes it, "-" for none.
        public var pathText: String { ShownPath.text(path, state: pathState) }

        enum CodingKeys: String, CodingKey {
            case image, sha256, path, pathState = "path_state", label, colour, distance, bits
        }
    }

    public struct Report: Sendable, Encodable, Equatable {
        public var image: Int64
        public var sha256: String
        public var path: String?
        /// The path's state: "present", "missing" or "none" (see `ShownPath`).
        public var pathState: String
        /// False when it has no fingerprints yet (imported before they were kept): it is
        /// compared with nothing until `fingerprints` takes them.
        public var fingerprinted: Bool
        /// Images compared with it; those without fingerprints are not.
        public var compared: Int
        /// Nearest first (equal distances by id).
        public var neighbours: [Neighbour]

        enum CodingKeys: String, CodingKey {
            case image, sha256, path, pathState = "path_state", fingerprinted, compared, neighbours
        }
    }

    let catalogue: any CatalogueStore
    let rule: Rule

    func report(_ reference: ImageReference, limit: Int) throws -> Report {
        try catalogue.read {
            let query = try reference.resolve(in: catalogue)
            let all = try catalogue.fingerprints()
            let shown = ShownPath(try catalogue.paths(of: query.id), here: catalogue.machine)
            guard let mine = all.first(where: { $0.id == query.id })?.fingerprint else {
                return Report(image: query.id.rawValue, sha256: query.sha256.hex, path: shown.path, pathState: shown.state,
                              fingerprinted: false, compared: 0, neighbours: [])
            }
            guard let queryFacts = try catalogue.lookalikeFacts([query.id]).first else {
                throw WardrobeError.notFound("image \(query.id) in \(catalogue.path)")
            }
            let nearest = try Self.nearest(to: (mine, queryFacts), among: all, limit: limit, rule: rule) { try catalogue.lookalikeFacts($0) }
            let neighbours = try nearest.map { found -> Neighbour in
                guard let record = try catalogue.image(found.facts.id) else {
                    throw WardrobeError.notFound("image \(found.facts.id) in \(catalogue.path)")
                }
                let path = ShownPath(try catalogue.paths(of: found.facts.id), here: catalogue.machine)
                return Neighbour(image: found.facts.id.rawValue, sha256: record.sha256.hex, path: path.path, pathState: path.state,
                                 label: found.facts.label.map { ClothingClassifier.labels.indices.contains($0) ? ClothingClassifier.labels[$0] : "none" },
                                 colour: found.facts.colour, distance: (found.distance * 1000).rounded() / 1000, bits: found.bits)
            }
            return Report(image: query.id.rawValue, sha256: query.sha256.hex, path: shown.path, pathState: shown.state,
                          fingerprinted: true, compared: all.count - 1, neighbours: neighbours)
        }
    }

    struct Found {
        var facts: LookalikeFacts
        var distance: Double
        var bits: Int
    }

    /// The `limit` images of `all` nearest `query` (never itself), nearest first; `facts` reads
    /// the colours and logits of the images it is given.
    static func nearest(to query: (fingerprint: StoredFingerprint, facts: LookalikeFacts),
                        among all: [(id: ImageID, fingerprint: StoredFingerprint)], limit: Int, rule: Rule,
                        facts: ([ImageID]) throws -> [LookalikeFacts]) throws -> [Found] {
        guard limit > 0 else { return [] }
        // Every image's fingerprints' term, as bits of 128; the others only add to it.
        var bits = [UInt8](repeating: 0, count: all.count)
        var counts = [Int](repeating: 0, count: 129)
        for (index, image) in all.enumerated() {
            let b = Self.bits(query.fingerprint, image.fingerprint)
            bits[index] = UInt8(b)
            if image.id != query.facts.id { counts[b] += 1 }
        }
        // The `examined` nearest by bits, in order (bits then id), without sorting them all: the
        // bits below which fewer than `examined` lie, then those images in one pass.
        var cutoff = 0, below = 0
        while cutoff < 128 && below + counts[cutoff] < rule.examined {
            below += counts[cutoff]
            cutoff += 1
        }
        var order = [(bits: Int, index: Int)]()
        order.reserveCapacity(rule.examined)
        for index in all.indices where Int(bits[index]) <= cutoff && all[index].id != query.facts.id {
            order.append((Int(bits[index]), index))
        }
        order.sort { ($0.bits, $0.index) < ($1.bits, $1.index) }
        if order.count > rule.examined { order.removeLast(order.count - rule.examined) }
        let query = Terms(query.facts)
        var found: [Found] = []
        var start = 0
        while start < order.count {
            // Nothing further in bits can come nearer than the `limit`th found.
            if found.count == limit, Double(order[start].bits) / 128 > found[limit - 1].distance { break }
            let chunk = order[start..<min(order.count, start + 250)]
            let read = Dictionary(try facts(chunk.map { all[$0.index].id }).map { ($0.id, $0) }) { first, _ in first }
            for candidate in chunk {
                guard let facts = read[all[candidate.index].id] else { continue }
                let distance = Double(candidate.bits) / 128 + query.distance(to: Terms(facts), rule: rule)
                found.append(Found(facts: facts, distance: distance, bits: candidate.bits))
            }
            found.sort { ($0.distance, $0.facts.id) < ($1.distance, $1.facts.id) }
            if found.count > limit { found.removeLast(found.count - limit) }
            start = chunk.endIndex
        }
        return found
    }

    /// The bits two images' fingerprints differ in, of 128: whole picture and garment, or the
    /// whole pictures' twice when either has no garment.
    static func bits(_ a: StoredFingerprint, _ b: StoredFingerprint) -> Int {
        let whole = (a.whole ^ b.whole).nonzeroBitCount
        guard let x = a.garment, let y = b.garment else { return 2 * whole }
        return whole + (x ^ y).nonzeroBitCount
    }

    /// An image's colour and label probabilities, as the distance compares them.
    struct Terms {
        /// The CIELAB mean of the garment's largest colour.
        var lab: (Double, Double, Double)?
        var probabilities: [Double]?

        init(_ facts: LookalikeFacts) {
            lab = facts.colours?.first.map { ($0.lightness, $0.a, $0.b) }
            probabilities = facts.logits.map { logits in
                // Softmax, the largest subtracted first (the contract's rule).
                let top = Double(logits.max() ?? 0)
                let exponentials = logits.map { exp(Double($0) - top) }
                let sum = exponentials.reduce(0, +)
                return exponentials.map { $0 / sum }
            }
        }

        /// The colour and label terms (2 and 3 of `SimilarFinder`).
        func distance(to other: Terms, rule: Rule) -> Double {
            var colour = 0.5
            if let (l, a, b) = lab, let (m, c, d) = other.lab {
                colour = min(100, ((l - m) * (l - m) + (a - c) * (a - c) + (b - d) * (b - d)).squareRoot()) / 100
            }
            var label = 0.5
            if let p = probabilities, let q = other.probabilities {
                label = zip(p, q).reduce(0) { $0 + abs($1.0 - $1.1) } / 2
            }
            return rule.colourWeight * colour + rule.labelWeight * label
        }
    }
}
