import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe history ID|HASH-PREFIX|PATH`
struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "Every classification and every label and colour a person gave one image, oldest first.",
        discussion: """
            Each line is one classification: the run that made it (import, classify,
            reclassify), the model, the prep recipe, the label and its confidence. A '*'
            marks a label that differs from the one before. A run that did not finish is
            marked beside its command: (interrupted) by Ctrl-C or because its process died
            (killed, cut off), (failed), or (running) while it still runs. A person's acts ('wardrobe label':
            a label, a confirmation, a clear; 'wardrobe colour': a colour, a clear) stand in their
            place in time; the latest one outranks every run and every measured colour.

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
        let details = try catalogue.details(of: images[0])
        if output.json {
            try console.json(details.timeline.map(HistoryCommand.JSONEvent.init), of: "the image's history")
            return .success
        }
        console.output("image \(details.id)  \(details.sha256.prefix(12))  \(Format.escaped(details.paths.first?.path ?? ""))")
        console.outputLines(HistoryCommand.table(details, console: console))
        if let corrected = details.correctedLabel {
            console.output("labelled \(corrected) by a person (outranks every run)")
        }
        if let colour = details.personColour {
            console.output("coloured \(colour) by a person (outranks the measured colour\(details.measuredColour.map { ", \($0)" } ?? ""))")
        }
        return .success
    }

    /// The history as a table; `*` (bold on a colour terminal) marks a
    /// changed label; a person's acts show as `person` in the model column.
    static func table(_ details: ImageDetails, console: Console) -> String {
        guard !details.timeline.isEmpty else { return "no classifications" }
        var rows = [["", "WHEN", "RUN", "COMMAND", "MODEL", "RECIPE", "LABEL", "CONF"]]
        for event in details.timeline {
            switch event {
            case .classification(let entry):
                rows.append([entry.labelChanged ? "*" : "", Format.day(entry.classifiedAt), String(entry.run),
                             entry.runState == "finished" ? entry.command : "\(entry.command) (\(entry.runState))", entry.model, entry.recipe, entry.label, Format.percent(entry.confidence)])
            case .correction(let act):
                let label = switch act.kind {
                case "confirm": "\(act.label ?? "-") (confirmed)"
                case "clear": "(cleared)"
                default: act.label ?? "-"
                }
                rows.append(["", Format.day(act.correctedAt), "-", act.command, "person", "-", label, ""])
            case .colourCorrection(let act):
                rows.append(["", Format.day(act.correctedAt), "-", act.command, "person", "-",
                             act.colour.map { "colour \($0)" } ?? "(colour cleared)", ""])
            }
        }
        return Format.table(rows, rightAligned: [2, 7])
    }

    /// One step as `--json` writes it: a classification as before, or a person's act with
    /// its kind (`label`, `confirm`, `clear`; `colour`, `colour_clear`).
    struct JSONEvent: Encodable {
        let event: ImageDetails.Event

        init(_ event: ImageDetails.Event) { self.event = event }

        func encode(to encoder: any Encoder) throws {
            switch event {
            case .classification(let entry): try entry.encode(to: encoder)
            case .correction(let act): try act.encode(to: encoder)
            case .colourCorrection(let act): try act.encode(to: encoder)
            }
        }
    }
}
