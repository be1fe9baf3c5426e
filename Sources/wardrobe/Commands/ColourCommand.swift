import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe colour COLOUR IMAGE...`, `--clear IMAGE...`
struct ColourCommand: Command {
    static let configuration = CommandConfiguration(
        name: "colour",
        abstract: "Give images the garment colour a person sees; it outranks the measured colour from then on.",
        alternatives: [.oneOf(["COLOUR", "IMAGE..."], ["--clear", "IMAGE..."])],
        discussion: """
            COLOUR is one of the palette's names, in any case ('gray' and 'multicolor' too):
            \(ColourSetter.names.joined(separator: ", ")).
            The colour a person gives outranks the measured one everywhere; --clear takes it
            back, and the measured colour counts again. Every act is kept with when and
            through which command ('wardrobe history'); the latest wins, and no later run
            (reclassify, colours, a re-import) changes it.

            IMAGE is an id, the first hex digits of a SHA-256, or a path, as for 'show'; '-'
            reads them from stdin, one a line (the ids of 'wardrobe list --ids', or the rows
            of 'wardrobe list --csv'): wardrobe list --colour blue --ids | wardrobe colour navy -
            Every image is found before anything is written; all are changed at once.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: "COLOUR IMAGE...", help: "The colour, then the images ('-' reads them from stdin).",
              firstWordCompletesAs: "--colour")
    var words: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @Flag(name: "--clear", help: "Remove the person's colour from the images: the measured colour counts again.")
    var clear: Bool
    @Flag(name: "--quiet", short: "q", help: "Print only the one-line summary, not a row per image.")
    var quiet: Bool
    @OptionGroup var output: JSONOutputOption

    /// The colour set, nil for --clear.
    var colour: String? {
        get throws(UsageError) {
            guard !clear else { return nil }
            do {
                return try ArgumentValues.colour(words[0])
            } catch {
                throw UsageError("COLOUR: \(error)")
            }
        }
    }

    var imageWords: [String] { clear ? words : Array(words.dropFirst()) }

    func validate() throws(UsageError) {
        if quiet && output.json { throw UsageError("--quiet and --json cannot be combined") }
        if !clear && words.isEmpty { throw UsageError("missing COLOUR and IMAGE...") }
        _ = try colour
        try ImageWords.validate(imageWords)
    }

    func run(_ console: Console) throws -> ExitStatus {
        try ImageWords.apply(imageWords, catalogue: catalogue.path, console: console, quiet: quiet, json: output.json,
                             nothing: "no colour was changed", what: "the colour changes",
                             done: clear ? "cleared the colour of" : "coloured") {
            try $0.setColour(try colour, $1, places: $2)
        }
    }
}
