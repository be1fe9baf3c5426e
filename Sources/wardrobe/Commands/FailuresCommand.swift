import CommandLineKit
import Wardrobe

/// `wardrobe failures`
struct FailuresCommand: Command {
    static let configuration = CommandConfiguration(
        name: "failures",
        abstract: "List the files that failed to import, once each, with the reason.",
        discussion: """
            A file that failed and has not changed since (same size and modification time) is
            not read or reported again by the next import, which counts it as a known
            failure; change or replace the file and it is read again. A file that could not
            be read at all (no permission, an I/O error), or was moved away or changed while
            it was read, is tried again by every import. A symbolic link that
            leads nowhere (to nothing, or round in a loop) is known by the link itself and
            the reason: made again, or leading somewhere else, it is tried again. Delete it (or give it a
            name import passes over, such as .txt), and the next import of its folder drops it
            from this list.

            Exit status: 0 on success, 1 when the catalogue cannot be read, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let rows = try catalogue.failures()
        if output.json {
            try console.json(rows, of: "the list of failures")
            return .success
        }
        guard !rows.isEmpty else {
            console.info("no failing files")
            return .success
        }
        var table = [["PATH", "REASON", "TRIES", "LAST"]]
        for row in rows {
            table.append([row.path, row.reason, String(row.attempts), Format.day(row.lastFailed)])
        }
        console.outputLines(Format.table(table, rightAligned: [2]))
        return .success
    }
}
