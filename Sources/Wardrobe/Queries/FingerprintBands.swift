internal import Catalogue

/// The pairs of images whose fingerprints may be within `DuplicateFinder`'s rule, found
/// without comparing every pair (multi-index hashing): every pair within the rule is among
/// them, so the groups are the same as comparing all.
///
/// A pair is within the rule when the mean of its whole pictures' and garments' distances,
/// rounded down, is at most D: their 128 bits (whole and garment) differ in at most 2D + 1.
/// Cut into 8 bands of 16 bits, two such fingerprints differ in at most floor((2D + 1) / 8)
/// bits in one band at least (were every band further, the bits would add up to more). So each
/// image looks only in the buckets of its own bands' values and the values that many bits
/// away, one table of 65,536 buckets per band. A pair where either image has no garment is
/// within the rule when the whole pictures differ in at most D: 4 bands of the whole picture's
/// 64 bits, floor(D / 4) bits, looked up by the images without a garment in a table of every
/// image's whole picture. A pair may be found more than once.
struct FingerprintBands {
    /// Bits looked around each band's value: beyond this the buckets cover most of the
    /// catalogue and comparing every pair is as quick.
    static let widestRadius = 3

    /// Calls `body(i, j)`, i < j, for every pair of `images` whose fingerprints' bits are within
    /// `distance` (at least once each, perhaps more; colours and dismissals are the caller's);
    /// false, calling nothing, when the rule is too wide for bands to narrow it.
    static func candidatePairs(_ images: [FingerprintedImage], distance: Int, _ body: (Int, Int) -> Void) -> Bool {
        let bothRadius = (2 * distance + 1) / 8, wholeRadius = distance / 4
        guard bothRadius <= widestRadius, wholeRadius <= widestRadius else { return false }
        let wholes = images.map(\.fingerprint.whole)
        let garments = images.map { $0.fingerprint.garment ?? 0 }
        let withGarment = images.indices.filter { images[$0].fingerprint.garment != nil }
        // Pairs of images that both have a garment: 8 bands of whole and garment together,
        // each pair found handed on only when its 128 bits are within the rule.
        let bothLimit = 2 * distance + 1
        let both = Table(withGarment, bands: 8) { index, band in
            band < 4 ? wholes[index] >> (16 * UInt64(band)) : garments[index] >> (16 * UInt64(band - 4))
        }
        for (position, i) in withGarment.enumerated() {
            let (whole, garment) = (wholes[i], garments[i])
            both.lookUp(position, radius: bothRadius) { j in
                if i < j && (whole ^ wholes[j]).nonzeroBitCount + (garment ^ garments[j]).nonzeroBitCount <= bothLimit { body(i, j) }
            }
        }
        // Pairs where one has no garment: its whole picture against every image's.
        let withoutGarment = images.indices.filter { images[$0].fingerprint.garment == nil }
        guard !withoutGarment.isEmpty else { return true }
        let table = Table(Array(images.indices), bands: 4) { index, band in wholes[index] >> (16 * UInt64(band)) }
        for i in withoutGarment {
            // Position i in the table is image i.
            table.lookUp(i, radius: wholeRadius) { j in
                if i != j && (wholes[i] ^ wholes[j]).nonzeroBitCount <= distance { body(min(i, j), max(i, j)) }
            }
        }
        return true
    }

    /// One bucket table per band: the images (indices) whose band holds each 16-bit value, as
    /// offsets into one array (band b's bucket of a value is `members[starts[b * 65,537 + value]
    /// ..< starts[b * 65,537 + value + 1]]`), flat so that a probe is two loads.
    struct Table {
        static let stride = 65_537
        var starts: [Int32]
        var members: [Int32]
        /// Each image's band values, image by image.
        var values: [UInt16]
        let bands: Int

        init(_ indices: [Int], bands: Int, band: (Int, Int) -> UInt64) {
            self.bands = bands
            values = indices.flatMap { index in (0..<bands).map { UInt16(truncatingIfNeeded: band(index, $0)) } }
            starts = [Int32](repeating: 0, count: bands * Self.stride)
            members = [Int32](repeating: 0, count: bands * indices.count)
            for b in 0..<bands {
                let base = b * Self.stride
                for position in indices.indices { starts[base + Int(values[position * bands + b]) + 1] += 1 }
                // Each band's members start after the previous band's.
                starts[base] = Int32(b * indices.count)
                for value in 0..<65_536 { starts[base + value + 1] += starts[base + value] }
                var filled = Array(starts[base..<(base + 65_536)])
                for (position, index) in indices.enumerated() {
                    let value = Int(values[position * bands + b])
                    members[Int(filled[value])] = Int32(index)
                    filled[value] += 1
                }
            }
        }

        /// Calls `found` with every image in a bucket within `radius` bits of one of the band
        /// values of the image at `position` of the indices the table was made of (itself included).
        func lookUp(_ position: Int, radius: Int, _ found: (Int) -> Void) {
            starts.withUnsafeBufferPointer { starts in
                members.withUnsafeBufferPointer { members in
                    for b in 0..<bands {
                        let base = b * Self.stride
                        Self.around(values[position * bands + b], radius: radius) { probe in
                            let at = base + Int(probe)
                            for k in Int(starts[at])..<Int(starts[at + 1]) { found(Int(members[k])) }
                        }
                    }
                }
            }
        }

        /// Every 16-bit value within `radius` bits of `value`.
        static func around(_ value: UInt16, radius: Int, _ body: (UInt16) -> Void) {
            body(value)
            guard radius >= 1 else { return }
            for a in 0..<16 {
                let one = value ^ (1 << a)
                body(one)
                guard radius >= 2 else { continue }
                for b in (a + 1)..<16 {
                    let two = one ^ (1 << b)
                    body(two)
                    guard radius >= 3 else { continue }
                    for c in (b + 1)..<16 { body(two ^ (1 << c)) }
                }
            }
        }
    }
}
