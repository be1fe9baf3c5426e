import Foundation
import Wardrobe

/// `wardrobe export`
struct ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the current classification of every image (or every classification) as CSV or JSON.",
        discussion: """
            Rows are written as they are read from one snapshot of the catalogue, so an export
            of a million images needs no more memory than one row, and a concurrent import
            cannot tear it. Columns of the default export: \(ImageListing.Row.columns.joined(separator: ", ")).
            With --all, one row per classification ever made, oldest first:
            \(CatalogueExport.historyColumns.joined(separator: ", ")) (the ten logits, in label order).
            Times are UTC, ISO 8601.

            Exit status: 0 on success, 1 when the catalogue cannot be read or the output
            cannot be written, 64 for wrong usage.
            """,
        options: [
            .database,
            .value("--format", "csv|json", "The output format (default csv)."),
            .flag("--all", "Every classification of every image, not only the current ones."),
            .value("--output", "FILE", "Write to FILE instead of stdout."),
        ])

    var database: String?
    var format: RowFormat
    var all: Bool
    var output: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals()
        database = arguments.value("--db")
        let name = arguments.value("--format") ?? "csv"
        guard let format = RowFormat(rawValue: name.lowercased()) else {
            throw arguments.usageError("unknown --format '\(name)'; use csv or json")
        }
        self.format = format
        all = arguments.flag("--all")
        output = arguments.value("--output")
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: database, mode: .readOnly)
        let export = CatalogueExport(catalogue: catalogue)
        guard let output else {
            try export.write(format: format, all: all) { console.output(String(decoding: $0, as: UTF8.self), terminator: "") }
            return .success
        }
        guard FileManager.default.createFile(atPath: output, contents: nil),
              let file = FileHandle(forWritingAtPath: output) else {
            throw WardrobeError.invalidArgument("\(output): cannot create the file")
        }
        defer { try? file.close() }
        var failure: (any Error)?
        let rows = try export.write(format: format, all: all) { chunk in
            guard failure == nil else { return }
            do { try file.write(contentsOf: chunk) } catch { failure = error }
        }
        if let failure {
            throw WardrobeError.invalidArgument("\(output): cannot write: \((failure as NSError).localizedDescription)")
        }
        console.info("exported \(rows) rows to \(output)")
        return .success
    }
}
