import Foundation
import Wardrobe

/// Parsing shared by the query commands: labels, dates and image
/// references become usage errors that name the option.
extension ParsedArguments {
    /// `--label`, matched forgivingly; an unknown label lists the ten.
    func label(_ name: String = "--label") throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        do {
            return try LabelMatcher.index(of: text)
        } catch {
            throw usageError(error.description)
        }
    }

    func date(_ name: String) throws(UsageError) -> Date? {
        guard let text = value(name) else { return nil }
        do {
            return try DateArgument.parse(text)
        } catch {
            throw usageError("\(name): \(error.description)")
        }
    }

    /// The one ID|HASH-PREFIX|PATH argument of `show` and `history`.
    func singleImage() throws(UsageError) -> ImageReference {
        guard let text = positionals.first else { throw usageError("missing ID, HASH-PREFIX or PATH of an image") }
        guard positionals.count == 1 else { throw usageError("one image at a time; got \(positionals.count)") }
        return try imageReference(text)
    }

    func imageReference(_ text: String) throws(UsageError) -> ImageReference {
        do {
            return try ImageReference(text)
        } catch {
            throw usageError(error.description)
        }
    }
}

/// Help text shared by the commands that take an image.
enum QueryHelp {
    static let imageArgument = (
        "ID|HASH-PREFIX|PATH",
        "An image id (as 'wardrobe list' shows it), the first hex digits of its SHA-256, or a path it was imported from.")

    static let exitStatus = """
        Exit status: 0 on success; 1 when the image is not in the catalogue, a hash
        prefix matches several images, or the catalogue cannot be read; 64 for wrong usage.
        """
}
