import CommandLineKit
import Foundation
import Wardrobe

/// The images `label`, `colour` and `forget` act on, as words: ids, first hex digits of a
/// SHA-256, or paths, as for `show`; `-` reads them from stdin, one a line (`list --ids`,
/// `list --csv`).
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
    /// Stdin on a terminal is read as lines typed there, and `console` says so first: the
    /// command waited without a word, as if it hung. A line that names no image in any way
    /// stops the command, all of them named, unless `unreadable` takes each (`standard input
    /// line 5: ...`) and the command goes on with the others.
    static func references(_ words: [String], console: Console, unreadable: ((String) -> Void)? = nil) throws
        -> (references: [ImageReference], places: [String?]) {
        var references: [ImageReference] = []
        var places: [String?] = []
        for word in words {
            if word == "-" {
                if isatty(STDIN_FILENO) == 1 {
                    console.info("reading images from the terminal, one a line; end with Ctrl-D")
                }
                let read: [(reference: ImageReference, line: Int)]
                do {
                    if let unreadable {
                        let lines = Labeller.readReferences(lines: try StandardInput.readAll())
                        for error in lines.unreadable { unreadable("standard input \(error)") }
                        read = lines.references
                    } else {
                        read = try Labeller.references(lines: StandardInput.readAll())
                    }
                } catch let error as WardrobeError {
                    // 'standard input line 5: ...', or 'standard input: 2 lines name no image: line 5: ...'.
                    let text = error.description
                    throw WardrobeError.invalidArgument("standard input" + (text.hasPrefix("line ") ? " " : ": ") + text)
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

    /// What `label` and `colour` do with their words: the images found (stdin's where `-`
    /// stands) and changed all at once by `change`; then the changes as JSON (`what` names
    /// them), or a row per image (before -> after, with what stands beside a person's where it
    /// differs: the model's label, the measured colour), and `done` with how many.
    static func apply<Change: PrintedChange>(_ words: [String], catalogue path: String?, console: Console, quiet: Bool,
                                             json: Bool, nothing: String, what: String, done: String,
                                             _ change: (OpenCatalogue, [ImageReference], [String?]) throws -> [Change])
        throws -> ExitStatus {
        let (references, places) = try references(words, console: console)
        guard !references.isEmpty else {
            console.info("no images given on stdin; \(nothing)")
            return .success
        }
        let catalogue = try console.setup.openCatalogue(explicit: path, mode: .readWrite)
        let changes = try change(catalogue, references, places)
        if json {
            try console.json(changes, of: what)
            return .success
        }
        if !quiet {
            let rows = changes.map { change in
                var after = change.after ?? "-"
                if let beside = change.beside, beside != after { after += " (\(Change.besideName): \(beside))" }
                return [String(change.image), change.before ?? "-", "->", after, change.path ?? "-"]
            }
            console.outputLines(Format.table(rows, rightAligned: [0], width: console.terminalColumns, shrinking: 4))
        }
        console.info("\(done) \(changes.count) image\(changes.count == 1 ? "" : "s")")
        return .success
    }
}

/// One image's change by `label` or `colour`, as `ImageWords.apply` prints it.
protocol PrintedChange: Encodable {
    var image: Int64 { get }
    var path: String? { get }
    var before: String? { get }
    var after: String? { get }
    /// What stands beside a person's word, shown where it differs (`model: Coat`).
    var beside: String? { get }
    static var besideName: String { get }
}

extension Labeller.Change: PrintedChange {
    var beside: String? { model }
    static var besideName: String { "model" }
}

extension ColourSetter.Change: PrintedChange {
    var beside: String? { measured }
    static var besideName: String { "measured" }
}
