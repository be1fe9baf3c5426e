import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe show ID|HASH-PREFIX|PATH`
struct ShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show everything about one image: paths, facts, labels, history and a preview.",
        discussion: """
            The preview draws the stored thumbnail with Unicode half blocks, in 24-bit colour
            where COLORTERM says so, the 256-colour palette on other terminals, and gray
            shading characters when stdout is not a terminal or NO_COLOR is set, at most
            --width columns and three quarters as many lines, its shape kept, and at least
            4 columns wide and 2 lines tall however thin the picture.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: QueryHelp.imageArgument, help: QueryHelp.imageHelp, transform: ArgumentValues.image)
    var images: [ImageReference]
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--width", value: "COLUMNS",
            help: "Width of the preview in characters (default 40, or the terminal's width when narrower).", in: 8...400)
    var width: Int?
    @Flag(name: "--no-preview", help: "Leave out the thumbnail preview.")
    var noPreview: Bool
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        try QueryHelp.requireOne(images)
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let details = try catalogue.details(of: images[0])
        if output.json {
            try console.json(details, of: "the image's details")
            return .success
        }
        let style = PreviewStyle.detect(environment: console.environment, isTerminal: console.stdoutIsTerminal)
        // On a terminal narrower than 40 columns the picture is drawn to fit it: each row of a
        // wider one wrapped into two, and the picture came out in strips.
        let columns = width ?? max(8, min(40, console.terminalColumns ?? 40))
        if !noPreview, let picture = details.preview(columns: columns, style: style) {
            console.picture(picture)
        }
        var facts: [[String]] = [
            ["image", "\(details.id)  \(details.sha256)"],
            ["file", "\(details.format), \(details.width)x\(details.height), \(Format.bytes(details.byteSize))"],
            ["imported", Format.day(details.firstImported)],
        ]
        // As the camera's clock showed it, with its offset from UTC when the file says.
        if let taken = details.taken { facts.append(["taken", taken.replacingOccurrences(of: "T", with: " ")]) }
        if let colour = details.personColour {
            facts.append(["colour", "\(colour)  (set by a person; outranks the measured colour)"])
        }
        if let colour = details.measuredColour {
            // No share at all where no name covers a tenth of the garment (a plaid of many
            // colours): it read 'multicolour  ()'.
            let notes = [details.colours.map { "\($0.name) \(Format.percent($0.share))" }.joined(separator: ", "),
                         details.colourOnGarment == false ? "whole picture, no garment found" : ""].filter { !$0.isEmpty }
            facts.append([details.personColour == nil ? "colour" : "measured",
                          colour + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))")])
        }
        for (index, path) in details.paths.enumerated() {
            let state = path.missing ? "missing, last seen" : "seen"
            facts.append([index == 0 ? "paths" : "", "\(path.path)  (\(state) \(Format.day(path.lastSeen)))"])
        }
        if details.paths.isEmpty { facts.append(["paths", "none: no file is known for this image"]) }
        if let corrected = details.correctedLabel {
            facts.append(["label", "\(corrected)  (given by a person; outranks the model)"])
        }
        if let label = details.label, let confidence = details.confidence {
            facts.append([details.correctedLabel == nil ? "label" : "model", "\(label)  \(Format.percent(confidence))"])
            facts.append(["top 3", details.top.map { "\($0.label) \(Format.percent($0.probability))" }
                .joined(separator: ", ")])
        } else {
            facts.append([details.correctedLabel == nil ? "label" : "model", "not classified"])
        }
        console.outputLines(Format.table(facts, width: console.terminalColumns, filling: true))
        console.output("")
        console.outputLines(HistoryCommand.table(details, console: console))
        return .success
    }
}
