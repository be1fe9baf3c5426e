import Foundation
import Imaging
import Wardrobe

/// `wardrobe show ID|HASH-PREFIX|PATH`
struct ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show everything about one image: paths, facts, labels, history and a preview.",
        usage: "[options] ID|HASH-PREFIX|PATH",
        discussion: """
            The preview draws the stored thumbnail with Unicode half blocks, in 24-bit colour
            where COLORTERM says so, the 256-colour palette on other terminals, and gray
            shading characters when stdout is not a terminal or NO_COLOR is set.

            \(QueryHelp.exitStatus)
            """,
        arguments: [QueryHelp.imageArgument],
        options: [
            .database,
            .value("--width", "COLUMNS", "Width of the preview in characters (default 40)."),
            .flag("--no-preview", "Leave out the thumbnail preview."),
            .json,
        ])

    var image: ImageReference
    var database: String?
    var width: Int
    var preview: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        image = try arguments.singleImage()
        database = arguments.value("--db")
        width = try arguments.value("--width", as: Int.self, in: 8...400) ?? 40
        preview = !arguments.flag("--no-preview")
        json = arguments.flag("--json")
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: database, mode: .readOnly)
        let details = try ImageDetails(image, in: catalogue)
        if json {
            try console.json(details)
            return .success
        }
        let style = TerminalStyle.detect(environment: console.environment, isTerminal: console.stdoutIsTerminal)
        if preview, let picture = details.preview(columns: width, style: style) {
            console.output(picture)
        }
        var facts: [[String]] = [
            ["image", "\(details.id)  \(details.sha256)"],
            ["file", "\(details.format), \(details.width)x\(details.height), \(Format.bytes(details.byteSize))"],
            ["imported", Format.day(details.firstImported)],
        ]
        for (index, path) in details.paths.enumerated() {
            facts.append([index == 0 ? "paths" : "", "\(path.path)  (seen \(Format.day(path.lastSeen)))"])
        }
        if let label = details.label, let confidence = details.confidence {
            facts.append(["label", "\(label)  \(Format.percent(confidence))"])
            facts.append(["top 3", details.top.map { "\($0.label) \(Format.percent($0.probability))" }
                .joined(separator: ", ")])
        } else {
            facts.append(["label", "not classified"])
        }
        if let corrected = details.correctedLabel {
            facts.append(["corrected", "\(corrected) (set by a person; outranks the model)"])
        }
        console.output(Format.table(facts))
        console.output("")
        console.output(HistoryCommand.table(details.history, console: console))
        return .success
    }
}
