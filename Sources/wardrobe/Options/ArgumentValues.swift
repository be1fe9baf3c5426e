import CommandLineKit
import Files
import Foundation
import Wardrobe

/// How option and argument words become Wardrobe's values; each failure says
/// what was wrong, and the frame names the option.
enum ArgumentValues {
    /// A label, matched forgivingly; an unknown label names the nearest one ("did you mean"),
    /// else `LabelMatcher`'s error lists them all.
    static func label(_ text: String) throws -> Int {
        do {
            return try LabelMatcher.index(of: text)
        } catch {
            guard let near = Suggestion.nearest(to: text, among: LabelMatcher.knownWords) else { throw error }
            throw ValueError { _ in "unknown label \(LabelMatcher.quoted(text)); did you mean '\(near)'?" }
        }
    }

    /// The catalogue's file. `-` means stdin or stdout to most tools, but a catalogue is an
    /// SQLite file read and written in place, so it would have become a file named `-`.
    static func cataloguePath(_ text: String) throws -> String {
        if let problem = CatalogueLocation.nameProblem(text) { throw ValueError { "\($0): \(problem)" } }
        return try refusingDash(text, would: "make a catalogue file named '-': a catalogue is a file, never stdin or stdout")
    }

    /// A model file. `-` would be read as a file named `-`, where a person meant stdin: a model
    /// is read whole and hashed from a file, so it never comes from stdin.
    static func modelPath(_ text: String) throws -> String {
        try refusingDash(text, would: "read a model file named '-': a model is a file, never stdin")
    }

    /// A file a command writes. `-` means stdout to most tools, but every output here is a
    /// file made beside its name and renamed when whole, so it became a file named `-`
    /// ("exported 7 rows to -"), where a person meant the stream.
    static func outputPath(_ text: String) throws -> String {
        // The file is made beside its name, checked and renamed by names taken as UTF-8: a name
        // holding other bytes (`\xfe.csv`) was written as another (`\xF4\x8F\xBF\xBE.csv`)
        // while the command said it wrote the name given.
        guard PathName.isExact(text) else {
            throw ValueError { "\($0): \(PathName.display(text)) holds bytes that are not UTF-8 (shown as \\xHH); "
                + "name the file to write in UTF-8" }
        }
        return try refusingDash(text, would: "write a file named '-', not to stdout")
    }

    /// A photo, folder or map a command reads. Each is read from the file system (photos are
    /// hashed and their paths recorded, folders walked), never from stdin, so `-` would have
    /// been looked for as a file named `-`.
    static func inputPath(_ text: String) throws -> String {
        try refusingDash(text, would: "read a file or folder named '-', not stdin")
    }

    /// `text`, unless it is `-`: wrong usage saying what `-` would have done instead.
    private static func refusingDash(_ text: String, would outcome: String) throws -> String {
        guard text != "-" else { throw ValueError { "\($0) - would \(outcome) (./- names that file)" } }
        return text
    }

    /// A prep recipe's name: an unknown one is wrong usage, with the nearest name.
    static func recipe(_ text: String) throws -> String {
        guard WardrobeSetup.knowsRecipe(text) else {
            let known = WardrobeSetup.recipeNames
            throw ValueError { name in
                Suggestion.appending(to: "\(name): unknown prep recipe '\(text)'", for: text, among: known)
                    + " (known: \(known.joined(separator: ", ")))"
            }
        }
        return text
    }

    /// A recipe's name, or `all` to compare every recipe.
    static func recipeOrAll(_ text: String) throws -> String {
        text == "all" ? text : try recipe(text)
    }

    /// What `--min-confidence`, `--max-confidence` and `--below` say of P.
    static let confidenceHelp = "0.8 or 80%; a bare number above 1 is a percentage (80 = 80%)"

    /// A confidence as tables show it (`80%`) or as a share (`0.8`); a bare
    /// number above 1 (`80`) can only mean a percentage, and is read as one.
    static func confidence(_ text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isPercent = trimmed.hasSuffix("%")
        guard let number = Double(isPercent ? String(trimmed.dropLast()) : trimmed), number.isFinite else {
            throw ValueError { "\($0): '\(text)' is not a confidence (\(confidenceHelp))" }
        }
        let share = isPercent || number > 1 ? number / 100 : number
        guard (0...1).contains(share) else {
            throw ValueError { "\($0) must be between 0 and 1, or 0% and 100% (not \(text))" }
        }
        return share
    }

    /// Palette names, comma-separated, each read as `colour` and serve's gallery read one
    /// (`Gray`, `multi-color`; a look-alike letter named). An empty one is kept, for the
    /// option's check to refuse. They were matched exactly, so `--colour gray` was refused
    /// where `colour gray` and the gallery's filter took it, and Foundation's trimming of
    /// white space took a zero-width space for one, so `black<ZWSP>` was black unsaid.
    static func colours(_ text: String) throws -> [String] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { (part: Substring) throws -> String in
            do {
                return try part.allSatisfy({ $0 == " " || $0 == "\t" }) ? "" : colour(String(part))
            } catch {
                throw ValueError.naming("\(error)")
            }
        }
    }

    /// A palette name, as `ColourSetter` reads it; a typo names the nearest name, as a
    /// label's does ('blu' listed the fourteen names and left the reader to find blue).
    static func colour(_ text: String) throws(WardrobeError) -> String {
        do {
            return try ColourSetter.name(text)
        } catch {
            guard let near = Suggestion.nearest(to: text, among: ColourSetter.names) else { throw error }
            throw .invalidArgument("unknown colour \(LabelMatcher.quoted(text, kind: "colour")); did you mean '\(near)'?")
        }
    }

    static func date(_ text: String) throws -> Date {
        do {
            return try DateArgument.parse(text)
        } catch {
            throw ValueError.naming(error.description)
        }
    }

    /// An image id, hash prefix or path, as `show`, `history` and `reclassify` take it.
    static func image(_ text: String) throws -> ImageReference {
        try ImageReference(text)
    }
}
