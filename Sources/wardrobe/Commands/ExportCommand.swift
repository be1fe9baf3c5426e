import CommandLineKit
import Wardrobe

/// `wardrobe export`
struct ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write the current classification of every image (or every classification) as CSV or JSON.",
        discussion: """
            Rows are written as they are read from one snapshot of the catalogue, so an export
            of a million images needs no more memory than one row, and a concurrent import
            cannot tear it. Columns of the default export: \(ImageListing.Row.columns.joined(separator: ", ")).
            With --all, one row per classification ever made, oldest first:
            \(CatalogueExport.historyColumns.joined(separator: ", ")) (the ten logits, in label order).
            Times are UTC, ISO 8601. The filters of 'wardrobe list' (--label, --path, --since, ...)
            choose the images exported, with --all too: wardrobe export --label coat --format json

            Exit status: 0 on success, 1 when the catalogue cannot be read or the output
            cannot be written, 64 for wrong usage, 130 when Ctrl-C, SIGTERM or a closed
            terminal (SIGHUP) stopped an export to --output FILE (nothing of it is left behind).
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var filters: ImageFilterOptions
    @Option(name: "--format", value: "csv|json", help: "The output format (default csv).")
    var format = RowFormat.csv
    @Flag(name: "--all", help: "Every classification of every image, not only the current ones.")
    var all: Bool
    @Option(name: "--output", value: "FILE", help: "Write to FILE instead of stdout.", transform: ArgumentValues.outputPath)
    var output: String?

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let choosing = filters.filter.choosesSome ? filters.listing(order: .id) : nil
        guard let output else {
            try catalogue.export(format: format, all: all, choosing: choosing) { try console.data($0) }
            return .success
        }
        InterruptFlag.install()
        do {
            let rows = try catalogue.export(format: format, all: all, choosing: choosing, toFile: output)
            console.info("exported \(rows) rows to \(output)")
            return .success
        } catch let stop as CatalogueExport.Interrupted {
            console.info("interrupted: \(stop)")
            return .interrupted
        }
    }
}
