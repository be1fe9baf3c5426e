import Catalogue
import Foundation
import SeededRandom

/// Deterministic stand-ins for what the importer would store: the same number
/// always gives the same hash, size and classification, so a test or a
/// benchmark can check what it finds against what it wrote.
public enum Synthetic {
    /// SplitMix64's first output from `value`: a small, good-enough mixer for deterministic test data.
    public static func mix(_ value: UInt64) -> UInt64 {
        var splitMix = SplitMix64(seed: value)
        return splitMix.next()
    }

    /// A 32-byte digest unique to `number` (and `salt`).
    public static func digest(_ number: Int, salt: UInt64 = 0) -> SHA256Digest {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var state = UInt64(bitPattern: Int64(number)) ^ (salt &* 0x1000_0000_01B3)
        for _ in 0..<4 {
            state = mix(state)
            withUnsafeBytes(of: state.bigEndian) { bytes += $0 }
        }
        return try! SHA256Digest(bytes: bytes)
    }

    /// The classification of image `number` by model `variant`: a label
    /// spread evenly over 0...9 and a softmax confidence from its logits.
    public static func classification(_ number: Int, variant: Int = 0) -> NewClassification {
        var state = mix(UInt64(number) &* 31 &+ UInt64(variant) &* 0x51_7CC1_B727_220A)
        var logits = [Float](repeating: 0, count: 10)
        for index in 0..<10 {
            state = mix(state)
            logits[index] = Float(state % 10_000) / 1_000 - 5
        }
        let label = logits.indices.max { logits[$0] < logits[$1] }!
        let top = logits[label]
        let sum = logits.reduce(0) { $0 + exp(Double($1 - top)) }
        return NewClassification(logits: logits, label: label, confidence: 1 / sum)
    }

    /// Image `number` as the importer would hand it over, seen at `/photos/NNNNNNN.jpg`.
    public static func image(_ number: Int, salt: UInt64 = 0, thumbnailBytes: Int = 64,
                             classified: Bool = true) -> NewImage {
        let path = "/photos/" + String(number).leftPadded(to: 7) + ".jpg"
        return NewImage(
            sha256: digest(number, salt: salt), byteSize: 100_000 + number % 5_000,
            width: 3_000 + number % 100, height: 4_000, format: number % 3 == 0 ? "png" : "jpeg",
            thumbnail: thumbnailBytes > 0 ? [UInt8](repeating: UInt8(number % 251), count: thumbnailBytes) : nil,
            file: SeenFile(path: path, size: Int64(100_000 + number % 5_000),
                           modificationTimeNanoseconds: 1_700_000_000_000_000_000 + Int64(number)),
            classification: classified ? classification(number) : nil)
    }

    /// What import would measure of image `number`'s thumbnail, for `similar` and `duplicates`
    /// to compare: fingerprints of 64 random bits each (the first, a DCT hash's mean term, always
    /// set), as unrelated photos' differ in 32 +- 4 bits (real ones': 31 +- 5), ten crops of each
    /// (whole picture and garment) each its picture's with 4 to 14 of its bits flipped (as a real
    /// photo's are), and one of
    /// eight palette colours. Every tenth image is a copy of the one before it saved again: a
    /// few bits of each fingerprint flipped (0 to 5) and its colour a little lighter.
    public static func lookalike(_ number: Int) -> (fingerprint: StoredFingerprint, colours: StoredColours) {
        let photo = number % 10 == 9 ? number - 1 : number
        var state = mix(UInt64(photo) &+ 0x5EED_F00D)
        let whole = state | 1
        state = mix(state)
        let garment = state | 1
        let palette: [(String, Double, Double, Double)] = [
            ("black", 20, 0, 0), ("white", 92, 0, 3), ("grey", 55, 0, 0), ("beige", 85, 4, 14),
            ("blue", 40, 10, -45), ("red", 45, 60, 35), ("green", 50, -40, 30), ("navy", 25, 5, -25),
        ]
        let (name, lightness, a, b) = palette[Int(mix(state) % UInt64(palette.count))]
        func crops(of whole: UInt64) -> [UInt64] {
            var flips = mix(whole)
            return (0..<10).map { _ in
                var crop = whole
                flips = mix(flips)
                for _ in 0..<(4 + Int(flips % 11)) {
                    flips = mix(flips)
                    crop ^= 1 << (1 + flips % 63)
                }
                return crop
            }
        }
        guard photo != number else {
            return (StoredFingerprint(whole: whole, garment: garment, crops: crops(of: whole), garmentCrops: crops(of: garment)),
                    StoredColours(main: name, shares: [.init(name: name, share: 0.8, lightness: lightness, a: a, b: b)], onGarment: true))
        }
        // The copy: a few of the bits 1...63 flipped in each.
        var flips = mix(UInt64(number))
        var (copyWhole, copyGarment) = (whole, garment)
        for _ in 0..<Int(flips % 6) {
            flips = mix(flips)
            copyWhole ^= 1 << (1 + flips % 63)
            flips = mix(flips)
            copyGarment ^= 1 << (1 + flips % 63)
        }
        return (StoredFingerprint(whole: copyWhole, garment: copyGarment, crops: crops(of: copyWhole),
                                  garmentCrops: crops(of: copyGarment)),
                StoredColours(main: name, shares: [.init(name: name, share: 0.8, lightness: lightness + 3, a: a, b: b)], onGarment: true))
    }

    /// `image`'s content seen again at `path` (a copy, a renamed file), unclassified, as import
    /// stores a file whose hash it already knows.
    public static func copy(of image: NewImage, at path: String) -> NewImage {
        var copy = image
        copy.file = SeenFile(path: path, size: 1, modificationTimeNanoseconds: 1)
        copy.classification = nil
        return copy
    }

    /// A model file's registration; `number` tells models apart.
    public static func model(_ number: Int = 1) -> NewModel {
        NewModel(name: "clothing", version: "1.\(number)", sha256: digest(number, salt: 0xA11CE),
                 labels: labels, parameterCount: 100_000 + number)
    }

    public static let labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
