import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe list`
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List images by their label, confidence, date or path.",
        discussion: """
            Each image is listed with its effective label: the one a person gave it
            ('wardrobe label'), else its current classification (the latest one any run
            made), with the model's label beside a person's. Labels are matched
            forgivingly: 'tshirt', 't-shirt', 'top', 'ankle-boot', 'Ankle boot', 'sneakers',
            'jeans', 'hoodie'; 'none' lists the photos a person said show none of the ten.
            COLOUR is the garment's: the one a person gave it ('wardrobe colour'), else the
            one measured at import. The path is the image's best one: an existing file, this
            machine's first, the most recently seen.
            On a terminal the table shows at most --limit rows (default 100); --json and
            --csv stream every matching row unless --limit is given.

            Exit status: 0 on success (also when nothing matches), 1 when the catalogue or
            model cannot be read, 64 for wrong usage: an unknown label names the nearest one
            ('cot': did you mean 'Coat'?), else lists them all; a word that fits several
            ('shoes') names those.
            """)

    static let tableLimit = 100

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var filters: ImageFilterOptions
    @Option(name: "--sort", value: "ORDER", help: "confidence (highest first, default), uncertain (lowest first), newest, oldest (by import), taken (newest photo first), recent (by classification), id, label.")
    var sort = ImageListing.Order.confidence
    @Option(name: "--limit", value: "N", help: "At most N rows (0: no limit).", in: 0...Int.max)
    var limit: Int?
    @Option(name: "--offset", value: "N", help: "Skip the first N rows.", in: 0...Int.max)
    var offset = 0
    @OptionGroup var output: JSONOutputOption
    @Flag(name: "--csv", help: "Print CSV with a header line on stdout.")
    var csv: Bool
    @Flag(name: "--ids", help: "Print only the ids, one a line (for 'wardrobe label LABEL -').")
    var ids: Bool

    func validate() throws(UsageError) {
        if [output.json, csv, ids].filter({ $0 }).count > 1 { throw UsageError("--json, --csv and --ids cannot be combined") }
    }

    var options: ImageListing.Options { filters.listing(order: sort, limit: limit == 0 ? nil : limit, offset: offset) }

    var format: RowFormat? { output.json ? .json : csv ? .csv : nil }

    func run(_ console: Console) throws -> ExitStatus {
        let options = self.options
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        if ids {
            try catalogue.forEachImage(options) { console.output(String($0.id)) }
            return .success
        }
        if let format {
            let writer = RowWriter(format: format, columns: ImageListing.Row.columns) { try console.data($0) }
            try catalogue.forEachImage(options) { try writer.write($0.values) }
            try writer.finish()
            return .success
        }
        var shown = options
        if limit == nil { shown.limit = ListCommand.tableLimit }
        var rows: [[String]] = [["ID", "HASH", "LABEL", "CONF", "COLOUR", "PATH", "IMPORTED", "TAKEN"]]
        try catalogue.forEachImage(shown) { row in
            var label = row.label
            if row.labelledByPerson, row.modelLabel != row.label { label = "\(row.label) (model: \(row.modelLabel))" }
            rows.append([String(row.id), String(row.sha256.prefix(10)), label, Format.percent(row.confidence), row.colour ?? "-",
                         row.path.map { row.pathMissing ? "\($0) (missing)" : $0 } ?? "-", Format.day(row.imported),
                         row.taken.map { String($0.prefix(10)) } ?? "-"])
        }
        if rows.count == 1 {
            // Past the last match is not "none match", which it said: a person or a script paging
            // with --offset took the end of the list for a filter that chose nothing.
            let total = options.offset > 0 ? try catalogue.countImages(options) : 0
            console.info(total > 0 ? "no images past the first \(options.offset): \(total) match" : "no images match")
            return .success
        }
        // When the photos were taken, only when one of them says; colours, only when one is known.
        if rows.dropFirst().allSatisfy({ $0[7] == "-" }) { rows = rows.map { Array($0.prefix(7)) } }
        let colourColumn = rows.dropFirst().contains { $0[4] != "-" } ? 4 : nil
        if colourColumn == nil { rows = rows.map { row in row.enumerated().filter { $0.offset != 4 }.map(\.element) } }
        let path = colourColumn == nil ? 4 : 5
        // On a terminal the table fits its width: the hash, then the dates, then the colour are
        // left out, and then paths are shortened in the middle (the folder and the file name stay).
        console.outputLines(Format.table(rows, rightAligned: [0, 3], width: console.terminalColumns, shrinking: path,
                                         dropping: [1, path + 2, path + 1] + (colourColumn.map { [$0] } ?? [])))
        // Counting costs a walk over every match: only when the page is full.
        let listed = rows.count - 1
        guard listed == shown.limit else { return .success }
        let total = try catalogue.countImages(options)
        if listed + options.offset < total {
            console.info("\(listed) of \(total) images shown (from \(options.offset + 1)); see --limit and --offset")
        }
        return .success
    }
}
