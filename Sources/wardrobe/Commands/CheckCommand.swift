import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe check`
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Check every page of the catalogue for damage and say what is damaged.",
        discussion: """
            Runs SQLite's full integrity check, which reads the whole file: minutes on a
            large catalogue. (Every writing command runs a cheap check of its own first,
            and every command stops at the first damaged page it meets.) It then looks for
            values wardrobe never stores (a label of 99, an infinite confidence, a time past
            the year 9999), which another program can write and every command refuses,
            and for tables, indexes and triggers whose SQL is not what wardrobe wrote
            (a flipped bit there passes SQLite's check, which reads pages, not what they say).
            When damage is found, recover what can be read with
            'sqlite3 CATALOGUE .recover | sqlite3 recovered.sqlite', or restore your last backup.
            On a PostgreSQL catalogue it looks at the values only: the server's pages are
            checked with the server's own tool, pg_amcheck.

            Exit status: 0 when the catalogue is whole, 1 when it is damaged or cannot be
            read, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.catalogue(explicit: self.catalogue.path, mode: .readOnly)
        let path = catalogue.path
        let problems = try catalogue.check { seconds in
            console.status("checking every page of \(path): \(Format.duration(seconds))")
        }
        console.clearStatus()
        if output.json {
            struct Report: Encodable { var catalogue: String; var ok: Bool; var problems: [String] }
            try console.json(Report(catalogue: path, ok: problems.isEmpty, problems: problems), of: "the check's report")
        } else if problems.isEmpty, catalogue.isOnServer {
            console.output("\(path): no damage found (every value checked; the server's pages are pg_amcheck's to check)")
        } else if problems.isEmpty {
            console.output("\(path): no damage found (every page checked)")
        } else if catalogue.isOnServer {
            console.output("\(path): damaged; the check found values wardrobe never stores:")
            for problem in problems { console.output("  " + problem) }
            console.output("Undo the change another program made, or restore your last pg_dump.")
        } else {
            console.output("\(path): damaged; the check found (SQLite's integrity check, then values wardrobe never stores):")
            for problem in problems { console.output("  " + problem) }
            console.output("Recover what can be read with 'sqlite3 \(path) .recover | sqlite3 recovered.sqlite', or restore your last backup.")
        }
        return problems.isEmpty ? .success : .failure
    }
}
