import CommandLineKit
import Wardrobe

/// The images `label` and `colour` act on, as words: ids, first hex digits of a SHA-256, or
/// paths, as for `show`; `-` reads them from stdin, one a line (`list --ids`, `list --csv`).
enum ImageWords {
    /// A usage error for no words, or for a word that names no image in any way.
    static func validate(_ words: [String]) throws(UsageError) {
        if words.isEmpty { throw UsageError("missing IMAGE (an id, hash prefix or path; '-' for stdin)") }
        for word in words where word != "-" {
            do {
                _ = try ImageReference(word)
            } catch {
                throw UsageError(error.description)
            }
        }
    }

    /// The references the words give, stdin's read where `-` stands, each with where it was
    /// read (`standard input line 3`; nil for an argument), for the error of one that names no image.
    static func references(_ words: [String]) throws -> (references: [ImageReference], places: [String?]) {
        var references: [ImageReference] = []
        var places: [String?] = []
        for word in words {
            if word == "-" {
                let read: [(reference: ImageReference, line: Int)]
                do {
                    read = try Labeller.references(lines: StandardInput.readAll())
                } catch let error as WardrobeError {
                    throw WardrobeError.invalidArgument("standard input \(error)")
                }
                references += read.map(\.reference)
                places += read.map { "standard input line \($0.line)" }
            } else {
                references.append(try ImageReference(word))
                places.append(nil)
            }
        }
        return (references, places)
    }
}
