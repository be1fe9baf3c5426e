import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe stats`
struct StatsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Count images, paths, failures, models and runs; per label: count, share, mean confidence; per colour.",
        discussion: """
            Labels are each image's effective label: the one a person gave ('wardrobe label'),
            else its current classification. Mean confidence is the model's confidence in the
            label, over the images whose label is the model's: an image a person gave another
            label is counted but its confidence (in another label) left out, and a label only
            a person gave ('none') has none. Failures count
            files, not attempts. Where a person gave labels, the model's agreement with them
            is shown per label, counting only the labels the model that made each current
            label did not learn from (a model made by 'model train --corrections' records the
            images it learned from; agreeing with those says nothing). Runs that
            were interrupted (Ctrl-C, or a process that died before it finished) are counted
            on their own line; 'wardrobe history' marks them. Colours are each image's garment
            colour: the one a person gave ('wardrobe colour'), else the one measured at import
            ('wardrobe colours' measures older images); BY A PERSON counts the first.

            Exit status: 0 on success, 1 when the catalogue cannot be read, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let summary = try catalogue.summary()
        if output.json {
            try console.json(summary, of: "the catalogue's stats")
            return .success
        }
        console.output(summary.catalogue)
        var totals = [
            ["images", String(summary.images)],
            ["paths", String(summary.paths)],
            ["classifications", String(summary.classifications)],
            ["failures", String(summary.failures)],
            ["models", String(summary.models)],
            ["runs", String(summary.runs)],
            // Every label act a person made (labels, confirmations, clears), as serve's stats
            // page counts them; "corrections" said the confirmations and clears were corrections.
            ["label acts", String(summary.corrections)],
        ]
        if summary.missingPaths > 0 { totals.insert(["missing paths", String(summary.missingPaths)], at: 2) }
        if summary.interruptedRuns > 0 {
            totals.insert(["interrupted runs", String(summary.interruptedRuns)], at: totals.count - 1)
        }
        if summary.corrected > 0 { totals.append(["labelled by a person", String(summary.corrected)]) }
        console.outputLines(Format.table(totals.map { ["  " + $0[0], $0[1]] }, rightAligned: [1]))
        var rows = [["  LABEL", "IMAGES", "SHARE", "MEAN CONF"]]
        for label in summary.labels {
            rows.append(["  " + label.label, String(label.count), Format.percent(label.share),
                         label.meanConfidence.map { Format.percent($0) } ?? "-"])
        }
        console.outputLines(Format.table(rows, rightAligned: [1, 2, 3]))
        if summary.corrected > 0 {
            console.output("  (MEAN CONF: the model's, over the images whose label is its own)")
        }
        if !summary.colours.isEmpty {
            var colours = [["  COLOUR", "IMAGES", "SHARE", "BY A PERSON"]]
            for colour in summary.colours {
                colours.append(["  " + colour.colour, String(colour.count), Format.percent(colour.share), String(colour.byPerson)])
            }
            if summary.unmeasuredColours > 0 { colours.append(["  (not measured)", String(summary.unmeasuredColours), "", ""]) }
            console.outputLines(Format.table(colours, rightAligned: [1, 2, 3]))
        }
        guard !summary.agreement.isEmpty else { return .success }
        let overall = summary.overallAgreement
        guard overall.labelled > 0 else {
            console.output("The model learned from every label you gave (\(overall.learnedFrom)): nothing to measure it on.")
            return .success
        }
        console.output("The model " + (overall.sentence ?? "") + ":")
        var agreement = [["  LABEL", "YOURS", "AGREED", "SHARE"] + (overall.learnedFrom > 0 ? ["LEARNED FROM"] : [])]
        for label in summary.agreement {
            agreement.append(["  " + label.label, String(label.labelled), String(label.agreed), label.share.map(Format.percent) ?? "-"]
                             + (overall.learnedFrom > 0 ? [String(label.learnedFrom)] : []))
        }
        console.outputLines(Format.table(agreement, rightAligned: [1, 2, 3, 4]))
        return .success
    }
}
