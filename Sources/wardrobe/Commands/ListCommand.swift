import Foundation
import Wardrobe

/// `wardrobe list`
struct ListCommand: Command {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List images by their current label, confidence and date.",
        discussion: """
            Each image is listed with its current classification: the latest one any run
            made (a person's correction, if any, is shown beside it). Labels are matched
            forgivingly: 'tshirt', 't-shirt', 'top', 'ankle-boot', 'Ankle boot', 'sneakers'.
            On a terminal the table shows at most --limit rows (default 100); --json and
            --csv stream every matching row unless --limit is given.

            Exit status: 0 on success (also when nothing matches), 1 when the catalogue or
            model cannot be read, 64 for wrong usage (an unknown label lists the ten).
            """,
        options: [
            .database,
            .value("--label", "LABEL", "Only images whose current label is LABEL."),
            .value("--min-confidence", "P", "Only images with confidence >= P (0...1)."),
            .value("--max-confidence", "P", "Only images with confidence <= P (0...1)."),
            .value("--since", "DATE", "Only images first imported at or after DATE (\(DateArgument.accepted))."),
            .value("--until", "DATE", "Only images first imported before DATE."),
            .value("--model", "MODEL", "Only images whose current label came from MODEL: a model file, its name, name@version, id or hash prefix."),
            .value("--sort", "ORDER", "confidence (highest first, default), uncertain (lowest first), newest, oldest (by import), recent (by classification), id."),
            .value("--limit", "N", "At most N rows (0: no limit)."),
            .value("--offset", "N", "Skip the first N rows."),
            .json,
            .flag("--csv", "Print CSV with a header line on stdout."),
        ])

    static let tableLimit = 100

    var database: String?
    var options: ImageListing.Options
    var limitGiven: Bool
    var format: RowFormat?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals()
        database = arguments.value("--db")
        let sortText = arguments.value("--sort") ?? "confidence"
        guard let order = ImageListing.Order(rawValue: sortText.lowercased()) else {
            throw arguments.usageError("unknown --sort '\(sortText)'; use one of: "
                                       + ImageListing.Order.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let limit = try arguments.value("--limit", as: Int.self, in: 0...Int.max)
        options = ImageListing.Options(
            label: try arguments.label(),
            minConfidence: try arguments.value("--min-confidence", as: Double.self, in: 0...1),
            maxConfidence: try arguments.value("--max-confidence", as: Double.self, in: 0...1),
            since: try arguments.date("--since"), until: try arguments.date("--until"),
            model: arguments.value("--model"), order: order,
            limit: limit == 0 ? nil : limit,
            offset: try arguments.value("--offset", as: Int.self, in: 0...Int.max) ?? 0)
        if let low = options.minConfidence, let high = options.maxConfidence, low > high {
            throw arguments.usageError("--min-confidence \(low) is above --max-confidence \(high)")
        }
        if let since = options.since, let until = options.until, since >= until {
            throw arguments.usageError("--since is not before --until")
        }
        limitGiven = limit != nil
        switch (arguments.flag("--json"), arguments.flag("--csv")) {
        case (true, true): throw arguments.usageError("--json and --csv cannot be combined")
        case (true, false): format = .json
        case (false, true): format = .csv
        case (false, false): format = nil
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: database, mode: .readOnly)
        let listing = try ImageListing(catalogue: catalogue)
        if let format {
            let writer = RowWriter(format: format, columns: ImageListing.Row.columns) {
                console.output(String(decoding: $0, as: UTF8.self), terminator: "")
            }
            try listing.forEach(options) { writer.write($0.values) }
            writer.finish()
            return .success
        }
        var shown = options
        if !limitGiven { shown.limit = ListCommand.tableLimit }
        var rows: [[String]] = [["ID", "HASH", "LABEL", "CONF", "PATH", "IMPORTED"]]
        try listing.forEach(shown) { row in
            var label = row.label
            if row.labelledByPerson, row.modelLabel != row.label { label = "\(row.label) (model: \(row.modelLabel))" }
            rows.append([String(row.id), String(row.sha256.prefix(10)), label, Format.percent(row.confidence),
                         row.path ?? "-", Format.day(row.imported)])
        }
        if rows.count == 1 {
            console.info("no images match")
            return .success
        }
        console.output(Format.table(rows, rightAligned: [0, 3]))
        // Counting costs a walk over every match: only when the page is full.
        let listed = rows.count - 1
        guard listed == shown.limit else { return .success }
        let total = try listing.count(options)
        if listed + options.offset < total {
            console.info("\(listed) of \(total) images shown (from \(options.offset + 1)); see --limit and --offset")
        }
        return .success
    }
}
