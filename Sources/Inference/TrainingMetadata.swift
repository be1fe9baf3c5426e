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
    }

    /// The learned images a model's `training` map records: none when the
    /// key is absent (a model made before the key, or elsewhere), nil when
    /// the value is not a JSON array of SHA-256 hex strings.
    public static func learnedImages(in training: [String: String]) -> Set<String>? {
        guard let text = training[Key.learnedImages] else { return [] }
        guard let hashes = try? JSONDecoder().decode([String].self, from: Data(text.utf8)),
              hashes.allSatisfy({ $0.utf8.count == 64 && $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
        else { return nil }
        return Set(hashes)
    }
}
