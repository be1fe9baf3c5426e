import Foundation

/// The entries of a model file's `training` map (`ModelDescription.training`)
/// that readers act on: Training's `TrainingRecord` writes them, and the
/// classifier and the use cases read them (the recipe a model was trained
/// for, its temperature, what it learned from), so their keys belong to the
/// file's format rather than to the trainer. Readers ignore keys they do not know.
public enum TrainingMetadata {
    public enum Key {
        public static let dataSources = "data_sources"
        public static let recipe = "recipe"
        public static let photoViews = "photo_views"
        public static let parentSHA256 = "parent_sha256"
        public static let temperature = "temperature"
        public static let trainingSeconds = "training_seconds"
        public static let learnedImages = "learned_images"
        public static let rehearsalSHA256 = "rehearsal_sha256"
        public static let rehearsalPath = "rehearsal_path"
        public static let keeping = "keeping"
        /// How sure the model was against how often right, on the held-out photos, before and
        /// after its temperature (`CalibrationReport.recorded`).
        public static let calibrationBefore = "calibration_before"
        public static let calibrationAfter = "calibration_after"
    }

    /// The learned images a model records: the rows of its `learned_images` tensor
    /// (`ModelFile.learnedImageDigests`, as hex) and, in a file made before that tensor, the
    /// list under this key of its `training` map; none when neither is there, nil when the
    /// key's value is not a JSON array of SHA-256 hex strings.
    public static func learnedImages(in training: [String: String], digests: [UInt8] = []) -> Set<String>? {
        var hashes = Set<String>(minimumCapacity: digests.count / 32)
        for start in stride(from: 0, to: digests.count - digests.count % 32, by: 32) {
            hashes.insert(hex(digests[start..<(start + 32)]))
        }
        guard let text = training[Key.learnedImages] else { return hashes }
        guard let listed = try? JSONDecoder().decode([String].self, from: Data(text.utf8)),
              listed.allSatisfy({ $0.utf8.count == 64 && $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
        else { return nil }
        return hashes.union(listed)
    }

    /// `hashes` (SHA-256 as 64 lowercase hex digits) as `ModelFile.learnedImageDigests`: sorted,
    /// 32 bytes each.
    public static func digests(ofLearnedImages hashes: Set<String>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hashes.count * 32)
        for hash in hashes.sorted() {
            let digits = Array(hash.utf8)
            precondition(digits.count == 64, "a SHA-256 is 64 hex digits: \(hash)")
            for i in stride(from: 0, to: 64, by: 2) {
                bytes.append(nibble(digits[i]) << 4 | nibble(digits[i + 1]))
            }
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        default: preconditionFailure("not a lowercase hex digit: \(digit)")
        }
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (i, byte) in bytes.enumerated() {
                buffer[2 * i] = digits[Int(byte >> 4)]
                buffer[2 * i + 1] = digits[Int(byte & 0x0f)]
            }
            return bytes.count * 2
        }
    }
}
