/// Turns what a person types for a label into the label's index, forgiving
/// case, spaces, hyphens, slashes and a plural "s": `tshirt`, `T-shirt`,
/// `top`, `ankle-boot`, `Ankle boot` and `sneakers` all name a label.
public enum LabelMatcher {
    /// The index of the label `text` names; an error listing the ten otherwise.
    public static func index(of text: String) throws(WardrobeError) -> Int {
        let key = normalized(text)
        if let index = index(ofNormalized: key) { return index }
        if key.hasSuffix("s"), let index = index(ofNormalized: String(key.dropLast())) { return index }
        throw .invalidArgument("unknown label '\(text)'; the labels are: "
                               + ClothingClassifier.labels.joined(separator: ", "))
    }

    /// Lowercase letters and digits only.
    static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            .map(Character.init))
    }

    /// Each label answers to its whole name and to each part between slashes
    /// ("T-shirt/top" to "tshirttop", "tshirt" and "top").
    private static let keys: [(key: String, index: Int)] = ClothingClassifier.labels.enumerated().flatMap { index, label in
        ([label] + label.split(separator: "/").map(String.init)).map { (normalized($0), index) }
    }

    private static func index(ofNormalized key: String) -> Int? {
        guard !key.isEmpty else { return nil }
        return keys.first { $0.key == key }?.index
    }
}
