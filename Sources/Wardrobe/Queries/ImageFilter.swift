internal import Catalogue
import Files
import Foundation
import Imaging

/// Which images, in the words a person uses: `wardrobe list` and `export`
/// take them as options, the server's gallery and review as query
/// parameters. One type for both, so a filter the terminal has is one the
/// pages can have. Every filter left nil matches everything.
///
/// `Queries/` owns the use cases that read and show: the words that name images (this
/// filter, `ImageReference`, `DateArgument`), `list`, `show` and `history`, `export`,
/// `stats`, `failures`, the server's gallery, and the formats they write (`RowWriter`,
/// `JSONString`, `ISO8601Encoded`).
public struct ImageFilter: Sendable, Equatable {
    /// The effective label, 0...9 or `LabelMatcher.noneLabel`.
    public var label: Int?
    /// True: only images a person labelled; false: only those they did not.
    public var corrected: Bool?
    /// Only images none of whose files was there at the last look.
    public var missing: Bool
    /// Only images with a path matching this (a shell pattern; plain text matches anywhere in the path).
    public var path: String?
    /// Only images with a path in this folder or one below it (a relative one from the working folder).
    public var folder: String?
    public var minConfidence: Double?
    public var maxConfidence: Double?
    /// Only images first imported in [since, until).
    public var since: Date?
    public var until: Date?
    /// Only images whose current label came from this model (see `ModelReference`).
    public var model: String?
    /// Only photos taken in [takenAfter, takenBefore), as this machine's clock reads those
    /// times against the camera's (`2024-05-01` is midnight by both); a photo whose file does
    /// not say when it was taken is left out.
    public var takenAfter: Date?
    public var takenBefore: Date?
    /// Only images whose garment colour is one of these palette names (`ClothingColour`).
    public var colours: [String]?

    public init(label: Int? = nil, corrected: Bool? = nil, missing: Bool = false, path: String? = nil,
                folder: String? = nil, minConfidence: Double? = nil, maxConfidence: Double? = nil,
                since: Date? = nil, until: Date? = nil, model: String? = nil, takenAfter: Date? = nil,
                takenBefore: Date? = nil, colours: [String]? = nil) {
        self.label = label
        self.corrected = corrected
        self.missing = missing
        self.path = path
        self.folder = folder
        self.minConfidence = minConfidence
        self.maxConfidence = maxConfidence
        self.since = since
        self.until = until
        self.model = model
        self.takenAfter = takenAfter
        self.takenBefore = takenBefore
        self.colours = colours
    }

    /// The palette garment colours are named from (`ClothingColour`), in its order.
    public static let colourNames = ClothingColour.allCases.map(\.rawValue)

    /// True when any filter is given: not every image is chosen.
    public var choosesSome: Bool { self != ImageFilter() }

    /// The catalogue's selection; a model that is not registered is an error, and so are
    /// crossed confidence bounds (a closed range traps on them: `list` refuses them as wrong
    /// usage first, the pages as a bad request, and any other caller gets this error).
    func selection(in catalogue: any CatalogueStore) throws -> ImageSelection {
        var selection = ImageSelection(label: label, corrected: corrected, missing: missing,
                                       pathPattern: path.map(ImageFilter.globPattern), folder: folder.map(ImageFilter.folderName))
        if minConfidence != nil || maxConfidence != nil {
            let low = minConfidence ?? 0, high = maxConfidence ?? 1
            guard low <= high else {
                throw WardrobeError.invalidArgument("the lowest confidence (\(low)) is above the highest (\(high))")
            }
            selection.confidence = low...high
        }
        if since != nil || until != nil {
            // An open end is about 31,700 years away (in the catalogue's milliseconds, far from
            // overflowing); bounds beyond each other match nothing, as they make no range.
            let lower = since ?? Date(timeIntervalSince1970: -1e12)
            selection.imported = lower..<max(lower, until ?? Date(timeIntervalSince1970: 1e12))
        }
        if takenAfter != nil || takenBefore != nil {
            let lower = takenAfter.map(ImageFilter.cameraClock) ?? Date(timeIntervalSince1970: -1e12)
            selection.taken = lower..<max(lower, takenBefore.map(ImageFilter.cameraClock) ?? Date(timeIntervalSince1970: 1e12))
        }
        if let model {
            selection.model = try ModelReference.resolve(model, in: catalogue).id
        }
        if let colours {
            if let unknown = colours.first(where: { !Self.colourNames.contains($0) }) {
                throw WardrobeError.invalidArgument("no colour is named '\(unknown)' (one of: \(Self.colourNames.joined(separator: ", ")))")
            }
            selection.colours = colours
        }
        return selection
    }

    /// A moment as a camera set to this machine's time zone would have written it, read as UTC
    /// as the catalogue keeps capture times (`TakenTime.clock`).
    static func cameraClock(_ date: Date) -> Date {
        date.addingTimeInterval(TimeInterval(LocalZone.current.secondsFromGMT(for: date)))
    }

    /// `path` text as a GLOB pattern (SQLite's, which `PostgresGlob` also reads). A shell
    /// pattern is read as a shell reads it: `*`, `?`, `[...]` with `[!...]` for none of the set,
    /// `\` making the next character itself, and a `[` that no `]` closes is itself. GLOB knows
    /// no `\` and writes a set's negation `[^...]`, so the text as it was chose other paths than
    /// the shell's: `*[!0-9].jpg` the names ending in a digit or `!` (the opposite of those meant,
    /// and `list --path ... --ids | wardrobe label ...` labels them), `*\[2024\]*` and `[` none.
    /// Text with no wildcard left (`coat`, `[`, `\*`) matches anywhere in the path.
    static func globPattern(_ text: String) -> String {
        let characters = Array(text)
        var pattern = "", isPattern = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                pattern += globLiteral(characters[index + 1])
                index += 2
                continue
            }
            switch character {
            case "*", "?":
                pattern.append(character)
                isPattern = true
            case "[":
                if let (set, end) = globSet(characters, from: index) {
                    pattern += set
                    isPattern = true
                    index = end
                } else {
                    pattern += globLiteral(character)
                }
            default:
                pattern += globLiteral(character)
            }
            index += 1
        }
        return isPattern ? pattern : "*" + pattern + "*"
    }

    /// One character that GLOB would read as a wildcard, as a set holding only it.
    private static func globLiteral(_ character: Character) -> String {
        "*?[".contains(character) ? "[" + String(character) + "]" : String(character)
    }

    /// The shell's set opened at `start` as GLOB writes it, and the index of its closing `]`;
    /// nil when none closes it. A `]` first in the set (after `!` or `^`) is one of its
    /// characters, as in both; `\` makes the next character one of them, which GLOB can say
    /// only by place: `]` first, `^` not first, `-` last.
    private static func globSet(_ characters: [Character], from start: Int) -> (String, Int)? {
        var index = start + 1
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var members = "", bracket = false, caret = false, dash = false
        var first = true
        while index < characters.count {
            let character = characters[index]
            if character == "]" && !first {
                let body = (bracket ? "]" : "") + members + (caret ? "^" : "") + (dash ? "-" : "")
                // A set of `^` alone is the character; with `-`, the `-` goes first (both itself there).
                if !negated, body == "^" { return ("^", index) }
                if !negated, body == "^-" { return ("[-^]", index) }
                return ("[" + (negated ? "^" : "") + body + "]", index)
            }
            if character == "]" {
                bracket = true
            } else if character == "\\", index + 1 < characters.count {
                index += 1
                switch characters[index] {
                case "]": bracket = true
                case "^": caret = true
                case "-": dash = true
                default: members.append(characters[index])
                }
            } else if character == "^" && members.isEmpty {
                caret = true
            } else {
                members.append(character)
            }
            first = false
            index += 1
        }
        return nil
    }

    /// A folder as paths are recorded under it: from the root (a relative one from the working
    /// folder, as `import` records it), without the final `/` (the root is "": every path).
    static func folderName(_ text: String) -> String {
        let name = PathName.absolute(text)
        return name == "/" ? "" : name
    }
}
