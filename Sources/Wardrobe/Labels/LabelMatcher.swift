internal import Catalogue
import Files

/// Turns what a person types for a label into the label's index, forgiving
/// case, spaces, hyphens, slashes and a plural "s": `tshirt`, `T-shirt`,
/// `top`, `ankle-boot`, `Ankle boot` and `sneakers` all name a label, and so
/// do the everyday words of a wardrobe (`jeans`, `jacket`, `hoodie`...).
/// `none` (the photo shows none of the ten) is index `Catalogue.noneLabel`.
public enum LabelMatcher {
    /// What a person calls the label of a photo that shows none of the ten.
    public static let noneName = "none"
    /// The index of `none`, after the ten: a person's word that the photo shows none of them.
    public static let noneLabel = Catalogue.noneLabel

    /// The label's name for display: one of the ten, or `none`.
    public static func name(of index: Int) -> String {
        ClothingClassifier.labels.indices.contains(index) ? ClothingClassifier.labels[index] : noneName
    }

    /// The index of the label `text` names (0...9, or `Catalogue.noneLabel`
    /// for `none`); an error listing the labels otherwise, or listing the
    /// candidates when the word fits several (`shoes`).
    public static func index(of text: String) throws(WardrobeError) -> Int {
        let key = normalized(text)
        for candidate in [key, key.hasSuffix("s") ? String(key.dropLast()) : nil].compactMap({ $0 }) {
            if let index = index(ofNormalized: candidate) { return index }
            if let several = ambiguous[candidate] {
                throw .invalidArgument("'\(text)' could be \(several.map { name(of: $0) }.joined(separator: ", ")); "
                                       + "say which")
            }
        }
        throw .invalidArgument("unknown label \(quoted(text)); the labels are: "
                               + (ClothingClassifier.labels + [noneName]).joined(separator: ", "))
    }

    /// A word that is no label, quoted for an error about it. Every label is ASCII, so a
    /// character that is not (a Cyrillic Т, a no-break space, a zero-width joiner) is named
    /// as well: 'Тrouser' beside "did you mean 'Trouser'?" showed two words that look the same.
    /// `kind` is what the word was meant to name (`label`, `colour`). A byte that is not UTF-8
    /// is named as the byte it is (`\xFF`): named as the scalar that stands for it, it was
    /// U+10FFFF, a character nobody typed.
    public static func quoted(_ text: String, kind: String = "label") -> String {
        let foreign = VisibleText.foreignCharacters(in: text)
        guard !foreign.isEmpty else { return "'\(text)'" }
        return "'\(text)' (with \(foreign.prefix(3).joined(separator: ", "))\(foreign.count > 3 ? ", ..." : ""), "
            + "which no \(kind) holds)"
    }

    /// Every word a label answers to, as a person would type it: for "did you mean".
    public static var knownWords: [String] {
        ClothingClassifier.labels.flatMap { [$0] + $0.split(separator: "/").map(String.init) }
            + everydayWords.keys.sorted()
    }

    /// ASCII letters, lowercased, and digits; the rest of ASCII (spaces, hyphens, slashes) left
    /// out; every other character kept as it is. Every label and colour is ASCII, so a word
    /// holding a look-alike or invisible character (a Cyrillic Т, a full-width Ｔ, a zero-width
    /// joiner, a combining accent) names none, and `quoted` names the character. They were left
    /// out with the punctuation, so `Т-shirt` (a Cyrillic Т) was `shirt`, a Shirt, where a
    /// T-shirt was meant, and `Dress` with an accent on its last s was Dress while `Drèss` was
    /// no label. Only ASCII is lowercased: lowercasing the rest made ASCII of some (the Kelvin
    /// sign's K, the Turkish İ's i).
    static func normalized(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": key.append(scalar)
            case "A"..."Z": key.append(Unicode.Scalar(scalar.value + 32)!)
            case _ where !scalar.isASCII: key.append(scalar)
            default: break
            }
        }
        return String(key)
    }

    /// Words people use for the Fashion-MNIST classes (singular, normalised).
    private static let everydayWords: [String: Int] = [
        "pants": 1, "pant": 1, "jeans": 1, "jean": 1, "trousers": 1,
        "tee": 0, "tees": 0,
        "sweater": 2, "hoodie": 2,
        "jacket": 4,
        "trainer": 7,
        "boot": 9,
        "handbag": 8,
        "none": Catalogue.noneLabel,
    ]

    /// Words that fit several labels: an error names them.
    private static let ambiguous: [String: [Int]] = ["shoe": [5, 7, 9]]

    /// Each label answers to its whole name and to each part between slashes
    /// ("T-shirt/top" to "tshirttop", "tshirt" and "top").
    private static let keys: [(key: String, index: Int)] = ClothingClassifier.labels.enumerated().flatMap { index, label in
        ([label] + label.split(separator: "/").map(String.init)).map { (normalized($0), index) }
    }

    private static func index(ofNormalized key: String) -> Int? {
        guard !key.isEmpty else { return nil }
        return keys.first { $0.key == key }?.index ?? everydayWords[key]
    }
}
