internal import Catalogue
import Foundation

/// `wardrobe duplicates`: groups of images that are the same photo saved again (resized,
/// recompressed, cropped a little, brightened), found by their perceptual fingerprints
/// (`ImageFingerprint`, taken at import). Their **crop distance** is the fewest bits one's whole
/// picture's fingerprint differs in from the other's whole picture or one of its crops (the
/// whole picture as if cropped), which a crop of the photo leaves small where it moves the
/// whole picture's a dozen bits; their **garment distance** is the same of the garments'
/// fingerprints and the garments' crops (a crop that cuts the garment moves its box). Two images
/// are the same photo when their crop distance is at most `Rule.nearCrop`, or at most
/// `Rule.cropLimit` with their distance, the garment distance plus one and a half times the crop
/// distance, at most `Rule.distance` (two and a half times the crop distance when either has no
/// garment: a change of light moves the garment's box more, and unrelated photos rarely come
/// near in both); and their garments' largest measured colours are within
/// `Rule.colourDifference` in CIELAB (where a person gave either a colour: not two names). A
/// group is every image reached through such pairs, except the pairs a person dismissed
/// (`DismissedPair`): a dismissed group does not come back. Only the pairs `FingerprintBands`
/// finds are compared, which hold every pair within the rule, so the groups are those of
/// comparing every pair (`DuplicateGroupsTests`). How the rule was chosen, and what it finds,
/// is in docs/duplicates.md.
public struct DuplicateFinder {
    /// The largest distance at which two images are the same photo, and the largest CIELAB
    /// distance between their garments' largest measured colours.
    public struct Rule: Sendable, Equatable {
        public var distance: Int
        public var colourDifference: Double

        public init(distance: Int, colourDifference: Double = Rule.standard.colourDifference) {
            self.distance = distance
            self.colourDifference = colourDifference
        }

        /// Chosen together on the training photos' pair set (docs/duplicates.md).
        public static let standard = Rule(distance: 14, colourDifference: 25)

        /// A crop distance at or below which two images are the same photo whatever their
        /// garments (a change of light can move the garment's box a long way).
        public static let nearCrop = 2
        /// The largest crop distance of the same photo, which keeps the pairs to compare few
        /// (`FingerprintBands`); the training set's pairs above it add 0.004 of recall.
        public static let cropLimit = 6
    }

    /// One image of a group.
    public struct Member: Sendable, Encodable, Equatable {
        public var image: Int64
        public var sha256: String
        public var path: String?
        /// The path's state: "present", "missing" or "none" (see `ShownPath`).
        public var pathState: String
        public var colour: String?
        /// Its distance from the group's first image (see `DuplicateFinder`).
        public var distance: Int

        /// "PATH (missing)" as `list` writes it, "-" for none.
        public var pathText: String { ShownPath.text(path, state: pathState) }

        enum CodingKeys: String, CodingKey {
            case image, sha256, path, pathState = "path_state", colour, distance
        }
    }

    public struct Group: Sendable, Encodable, Equatable {
        public var images: [Member]
    }

    public struct Report: Sendable, Encodable, Equatable {
        /// The largest distance of the same photo.
        public var distance: Int
        /// Images compared; those without fingerprints (imported before they were kept) are not.
        public var fingerprinted: Int
        /// Images that lack some or all of their fingerprints (imported before a kind of them
        /// was kept), which `fingerprints` takes: those with some are among `fingerprinted`.
        public var unfingerprinted: Int
        /// By their first image's id.
        public var groups: [Group]
    }

    let catalogue: any CatalogueStore
    let rule: Rule

    func report() throws -> Report {
        try catalogue.read {
            let images = try catalogue.fingerprintedImages()
            let unfingerprinted = try catalogue.imagesAwaitingFingerprint(after: nil, limit: Int.max).count
            let groups = try Self.groups(images, dismissed: try catalogue.dismissedPairs(), rule: rule).map { members in
                let first = images[members[0]].fingerprint
                return Group(images: try members.map { index in
                    let image = images[index]
                    guard let record = try catalogue.image(image.id) else {
                        throw CatalogueError.notFound("no image with id \(image.id) in \(catalogue.path)")
                    }
                    let shown = ShownPath(try catalogue.paths(of: image.id), here: catalogue.machine)
                    return Member(image: image.id.rawValue, sha256: record.sha256.hex, path: shown.path,
                                  pathState: shown.state, colour: image.colour,
                                  distance: Self.distance(image.fingerprint, first))
                })
            }
            return Report(distance: rule.distance, fingerprinted: images.count, unfingerprinted: unfingerprinted, groups: groups)
        }
    }

    /// The groups among `images`, as indices into it, each in order and ordered by its first.
    /// The pairs compared are those `FingerprintBands` finds, which hold every pair within the
    /// rule (`banded: false` compares every pair, as the tests do to hold the two equal).
    static func groups(_ images: [FingerprintedImage], dismissed: Set<DismissedPair>, rule: Rule, banded: Bool = true) -> [[Int]] {
        var parents = Array(images.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parents[index] != index {
                parents[index] = parents[parents[index]]
                index = parents[index]
            }
            return index
        }
        func compare(_ i: Int, _ j: Int) {
            guard samePhoto(images[i].fingerprint, images[j].fingerprint, rule: rule),
                  sameColour(images[i], images[j], rule: rule) else { return }
            let (a, b) = (root(i), root(j))
            guard a != b else { return }
            if !dismissed.isEmpty && dismissed.contains(DismissedPair(images[i].id, images[j].id)) { return }
            parents[max(a, b)] = min(a, b)
        }
        if banded {
            FingerprintBands.candidatePairs(images.map(\.fingerprint), cropLimit: Rule.cropLimit, compare)
        } else {
            for i in images.indices {
                for j in (i + 1)..<images.count { compare(i, j) }
            }
        }
        var members: [Int: [Int]] = [:]
        for index in images.indices { members[root(index), default: []].append(index) }
        return members.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
    }

    /// Whether two images' fingerprints are the same photo's by the rule (colours aside).
    static func samePhoto(_ a: StoredFingerprint, _ b: StoredFingerprint, rule: Rule) -> Bool {
        let crop = cropDistance(a, b)
        return crop <= Rule.nearCrop || (crop <= Rule.cropLimit && distance(a, b, crop: crop) <= rule.distance)
    }

    /// Whether two images' garments may be the same photo's: where a person gave either a
    /// colour, the same name; else their largest measured colours within the rule's CIELAB
    /// distance (a brightened black garment can measure grey: the names alone split them).
    /// What either lacks does not keep them apart.
    static func sameColour(_ a: FingerprintedImage, _ b: FingerprintedImage, rule: Rule) -> Bool {
        if a.colourByPerson || b.colourByPerson {
            guard let x = a.colour, let y = b.colour else { return true }
            return x == y
        }
        guard let x = a.lab, let y = b.lab else { return true }
        let squared = zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        return squared <= rule.colourDifference * rule.colourDifference
    }

    /// The fewest bits either's whole picture's fingerprint differs in from the other's whole
    /// picture or one of its crops (those an image has: none before they were taken).
    static func cropDistance(_ a: StoredFingerprint, _ b: StoredFingerprint) -> Int {
        fewestBits(a.whole, a.crops, b.whole, b.crops)
    }

    /// The fewest bits either's garment's fingerprint differs in from the other's garment or one
    /// of its garment's crops; nil when either has no garment.
    static func garmentDistance(_ a: StoredFingerprint, _ b: StoredFingerprint) -> Int? {
        guard let x = a.garment, let y = b.garment else { return nil }
        return fewestBits(x, a.garmentCrops, y, b.garmentCrops)
    }

    /// The fewest bits `x` differs in from `y` or one of `yCrops`, or one of `xCrops` from `y`.
    private static func fewestBits(_ x: UInt64, _ xCrops: [UInt64], _ y: UInt64, _ yCrops: [UInt64]) -> Int {
        var fewest = (x ^ y).nonzeroBitCount
        for crop in yCrops { fewest = min(fewest, (x ^ crop).nonzeroBitCount) }
        for crop in xCrops { fewest = min(fewest, (crop ^ y).nonzeroBitCount) }
        return fewest
    }

    /// The garment distance plus one and a half times the crop distance, rounded down; two and
    /// a half times the crop distance when either has no garment.
    static func distance(_ a: StoredFingerprint, _ b: StoredFingerprint) -> Int {
        distance(a, b, crop: cropDistance(a, b))
    }

    private static func distance(_ a: StoredFingerprint, _ b: StoredFingerprint, crop: Int) -> Int {
        guard let garment = garmentDistance(a, b) else { return 5 * crop / 2 }
        return (3 * crop + 2 * garment) / 2
    }
}
