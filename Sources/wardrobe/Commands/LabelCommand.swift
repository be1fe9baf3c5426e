import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe label LABEL IMAGE...`, `--clear IMAGE...`, `--confirm IMAGE...`
struct LabelCommand: Command {
    static let configuration = CommandConfiguration(
        name: "label",
        abstract: "Give images the label a person sees in them; list, stats and export use it from then on.",
        alternatives: [.oneOf(["LABEL", "IMAGE..."], ["--clear", "IMAGE..."], ["--confirm", "IMAGE..."])],
        discussion: """
            LABEL is matched as in 'wardrobe list' and takes everyday words (pants, jeans,
            boots, jacket, trainers, tee, sweater, hoodie, handbag); 'none' says the photo shows
            none of the ten (a hat, a skirt): such images are listed under 'none', left out of
            the other labels and of the model's agreement figures, and never used to train.
            --confirm records that the model's current label is right (an example for
            training, like a label); --clear takes the person's label back. Every act is
            kept with when and through which command ('wardrobe history'); the latest wins,
            and no later run changes it.

            IMAGE is an id, the first hex digits of a SHA-256, or a path, as for 'show'; '-'
            reads them from stdin, one a line (the ids of 'wardrobe list --ids', or the rows
            of 'wardrobe list --csv'): wardrobe list --label bag --ids | wardrobe label coat -
            Every image is found before anything is written; all are labelled at once.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: "LABEL IMAGE...", help: "The label, then the images ('-' reads them from stdin).",
              firstWordCompletesAs: "--label")
    var words: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @Flag(name: "--clear", help: "Remove the person's label from the images: the model's label counts again.")
    var clear: Bool
    @Flag(name: "--confirm", help: "Record that the model's current label of the images is right.")
    var confirm: Bool
    @Flag(name: "--quiet", short: "q", help: "Print only the one-line summary, not a row per image.")
    var quiet: Bool
    @OptionGroup var output: JSONOutputOption

    /// The act and the image words, as the command line gives them.
    var act: Labeller.Act {
        get throws(UsageError) {
            if clear { return .clear }
            if confirm { return .confirm }
            do {
                return .label(try ArgumentValues.label(words[0]))
            } catch let error as ValueError {
                throw UsageError(error.message("LABEL"))
            } catch {
                throw UsageError(String(describing: error))
            }
        }
    }

    var imageWords: [String] { clear || confirm ? words : Array(words.dropFirst()) }

    func validate() throws(UsageError) {
        if clear && confirm { throw UsageError("--clear and --confirm cannot be combined") }
        if quiet && output.json { throw UsageError("--quiet and --json cannot be combined") }
        if !clear && !confirm && words.isEmpty { throw UsageError("missing LABEL and IMAGE...") }
        _ = try act
        try ImageWords.validate(imageWords)
    }

    func run(_ console: Console) throws -> ExitStatus {
        let verb = clear ? "cleared the label of" : confirm ? "confirmed the label of" : "labelled"
        return try ImageWords.apply(imageWords, catalogue: catalogue.path, console: console, quiet: quiet, json: output.json,
                                    nothing: "nothing was labelled", what: "the label changes", done: verb) {
            try $0.label(try act, $1, places: $2)
        }
    }
}
