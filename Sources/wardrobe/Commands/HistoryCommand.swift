import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe history ID|HASH-PREFIX|PATH`
struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "Every classification of one image, oldest first, marking where the label changed.",
        usage: "[options] ID|HASH-PREFIX|PATH",
        discussion: """
            Each line is one classification: the run that made it (import, classify,
            reclassify), the model, the prep recipe, the label and its confidence. A '*'
            marks a label that differs from the one before. The last line is the current label.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: QueryHelp.imageArgument, help: QueryHelp.imageHelp, transform: ArgumentValues.image)
    var images: [ImageReference]
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        try QueryHelp.requireOne(images)
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let details = try ImageDetails(images[0], in: catalogue)
        if output.json {
            try console.json(details.history)
            return .success
        }
        console.output("image \(details.id)  \(details.sha256.prefix(12))  \(details.paths.first?.path ?? "")")
        console.output(HistoryCommand.table(details.history, console: console))
        if let corrected = details.correctedLabel {
            console.output("corrected by a person to \(corrected) (outranks every run)")
        }
        return .success
    }

    /// The history as a table; `*` (bold on a colour terminal) marks a changed label.
    static func table(_ history: [ImageDetails.Entry], console: Console) -> String {
        guard !history.isEmpty else { return "no classifications" }
        var rows = [["", "WHEN", "RUN", "COMMAND", "MODEL", "RECIPE", "LABEL", "CONF"]]
        for entry in history {
            rows.append([entry.labelChanged ? "*" : "", Format.day(entry.classifiedAt), String(entry.run),
                         entry.command, entry.model, entry.recipe, entry.label, Format.percent(entry.confidence)])
        }
        return Format.table(rows, rightAligned: [2, 7])
    }
}
