internal import Catalogue

/// The pairs of images whose crop distance (`DuplicateFinder.cropDistance`) may be within a
/// limit, found without comparing every pair (multi-index hashing): every pair within it is
/// among them, so the groups are the same as comparing all.
///
/// Two images are within crop distance C when one's whole picture's fingerprint is within C
/// bits of the other's whole picture or of one of its crops. Cut into 4 bands of 16 bits, two
/// such 64-bit values differ in at most floor(C / 4) bits in one band at least (were every band
/// further, the bits would add up to more). So every image's whole picture and crops (those
/// that differ) go in one table of 65,536 buckets per band, and each image's whole picture
/// looks only in the buckets of its bands' values and the values that many bits away: a crop
/// of image i near image j's whole picture is found when j looks. A pair may be found more
/// than once.
struct FingerprintBands {
    /// Calls `body(i, j)`, i < j, for every pair of `fingerprints` within crop distance
    /// `cropLimit` (at least once each, perhaps more; the rest of the rule is the caller's).
    static func candidatePairs(_ fingerprints: [StoredFingerprint], cropLimit: Int, _ body: (Int, Int) -> Void) {
        let radius = cropLimit / 4
        precondition(radius <= 3, "a crop limit this wide leaves the buckets most of the catalogue")
        var owners: [Int32] = [], hashes: [UInt64] = []
        for (index, fingerprint) in fingerprints.enumerated() {
            for hash in Set([fingerprint.whole] + fingerprint.crops) {
                owners.append(Int32(index))
                hashes.append(hash)
            }
        }
        let table = Table(hashes, bands: 4)
        for (i, fingerprint) in fingerprints.enumerated() {
            let whole = fingerprint.whole
            table.lookUp(whole, radius: radius) { entry in
                let j = Int(owners[entry])
                if i != j && (whole ^ hashes[entry]).nonzeroBitCount <= cropLimit { body(min(i, j), max(i, j)) }
            }
        }
    }

    /// One bucket table per band: the entries (indices of the hashes it was made of) whose band
    /// holds each 16-bit value, as offsets into one array (band b's bucket of a value is
    /// `members[starts[b * 65,537 + value] ..< starts[b * 65,537 + value + 1]]`), flat so that a
    /// probe is two loads.
    struct Table {
        static let stride = 65_537
        var starts: [Int32]
        var members: [Int32]
        let bands: Int

        init(_ hashes: [UInt64], bands: Int) {
            self.bands = bands
            starts = [Int32](repeating: 0, count: bands * Self.stride)
            members = [Int32](repeating: 0, count: bands * hashes.count)
            for b in 0..<bands {
                let base = b * Self.stride
                func value(_ entry: Int) -> Int { Int(UInt16(truncatingIfNeeded: hashes[entry] >> (16 * UInt64(b)))) }
                for entry in hashes.indices { starts[base + value(entry) + 1] += 1 }
                // Each band's members start after the previous band's.
                starts[base] = Int32(b * hashes.count)
                for value in 0..<65_536 { starts[base + value + 1] += starts[base + value] }
                var filled = Array(starts[base..<(base + 65_536)])
                for entry in hashes.indices {
                    members[Int(filled[value(entry)])] = Int32(entry)
                    filled[value(entry)] += 1
                }
            }
        }

        /// Calls `found` with every entry in a bucket within `radius` bits of one of `hash`'s
        /// band values.
        func lookUp(_ hash: UInt64, radius: Int, _ found: (Int) -> Void) {
            starts.withUnsafeBufferPointer { starts in
                members.withUnsafeBufferPointer { members in
                    for b in 0..<bands {
                        let base = b * Self.stride
                        Self.around(UInt16(truncatingIfNeeded: hash >> (16 * UInt64(b))), radius: radius) { probe in
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
