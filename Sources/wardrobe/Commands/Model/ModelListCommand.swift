import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model list`: the catalogue's models, the one in use, and each
/// one's agreement with the labels people gave.
struct ModelListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the catalogue's models: which is in use, and how often each agrees with your labels.",
        discussion: """
            A model is registered when it first classifies in the catalogue or is adopted
            ('wardrobe model use'). Agreement: of the images a person labelled or confirmed (not
            'none') that the model classified and did not learn from, the share whose latest
            label by that model is the person's label, with the count. Images a model learned
            from (a model made by 'model train --corrections' records them) are left out of its
            figure and counted apart: agreeing with them says nothing. '*' marks the model
            commands use without --model.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        let catalogue = try setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let listing = try catalogue.modelListing()
        if output.json {
            try console.json(listing, of: "the list of models")
            return .success
        }
        // Headed in capitals, as every other table is (list, stats, history).
        var rows = [["", "ID", "MODEL", "SHA256", "REGISTERED", "ADOPTED", "AGREEMENT"]]
        for model in listing.models {
            let figure = model.figure
            let agreement = figure.share.map { Format.percent($0) + ": " + (figure.sentence ?? "") }
                ?? figure.sentence ?? "no labelled image classified"
            rows.append([model.inUse ? "*" : "", String(model.id), "\(model.name) \(model.version)",
                         String(model.sha256.prefix(12)), Format.day(model.registeredAt),
                         model.lastAdopted.map(Format.day) ?? "-", agreement])
        }
        if listing.models.isEmpty {
            console.output("No models registered in \(listing.catalogue) yet (import or reclassify registers the model used).")
        } else {
            console.outputLines(Format.table(rows, rightAligned: [1], width: console.terminalColumns, filling: true))
        }
        console.output("in use: \(Format.escaped(listing.inUse)) (\(listing.inUseSource))"
                       + (listing.inUseRegistered ? "" : "; it has not classified here yet"))
        return .success
    }
}
