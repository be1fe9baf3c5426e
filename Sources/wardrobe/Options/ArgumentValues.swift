import CommandLineKit
import Foundation
import Wardrobe

/// How option and argument words become Wardrobe's values; each failure says
/// what was wrong, and the frame names the option.
enum ArgumentValues {
    /// A label, matched forgivingly; an unknown label lists the ten.
    static func label(_ text: String) throws -> Int {
        try LabelMatcher.index(of: text)
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
