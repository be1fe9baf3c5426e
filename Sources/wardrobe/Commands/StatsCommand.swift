import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe stats`
struct StatsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Count images, paths, failures, models and runs; per label: count, share, mean confidence.",
        discussion: """
            Labels are each image's current label (its latest classification).

            Exit status: 0 on success, 1 when the catalogue cannot be read, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let summary = try CatalogueSummary(catalogue: catalogue)
        if output.json {
            try console.json(summary)
            return .success
        }
        console.output(summary.catalogue)
        let totals = [
            ["images", String(summary.images)],
            ["paths", String(summary.paths)],
            ["classifications", String(summary.classifications)],
            ["failures", String(summary.failures)],
            ["models", String(summary.models)],
            ["runs", String(summary.runs)],
            ["corrections", String(summary.corrections)],
        ]
        console.output(Format.table(totals.map { ["  " + $0[0], $0[1]] }, rightAligned: [1]))
        var rows = [["  LABEL", "IMAGES", "SHARE", "MEAN CONF"]]
        for label in summary.labels {
            rows.append(["  " + label.label, String(label.count), Format.percent(label.share),
                         label.meanConfidence.map { Format.percent($0) } ?? "-"])
        }
        console.output(Format.table(rows, rightAligned: [1, 2, 3]))
        return .success
    }
}
