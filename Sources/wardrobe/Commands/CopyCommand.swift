import CommandLineKit
import Wardrobe

/// `wardrobe copy SOURCE DEST`
struct CopyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "copy",
        abstract: "Copy a whole catalogue into a new or empty one, between SQLite and PostgreSQL or alike.",
        discussion: """
            SOURCE and DEST are each an SQLite file or a PostgreSQL database (postgresql://...,
            or libpq's keyword form), as --db takes them. Every row of every table is copied
            as it is: images with their thumbnails, paths, runs, models and adoptions, every
            classification, a person's labels and their history, failures, capture times;
            not the leases by which processes working on SOURCE split its work.
            The copy is one snapshot of SOURCE, written to DEST in one transaction, and kept
            only when every table read back from DEST has SOURCE's row count and SHA-256 of its
            rows; otherwise nothing is kept, and a DEST the copy made is removed (so too when
            Ctrl-C, SIGTERM or a closed terminal stops it). DEST is made if it is not there; one that holds any
            row is refused and left as it was. DEST is made at this wardrobe's schema step, and
            SOURCE must be at it too (an older catalogue is upgraded by any command that writes
            to it, `wardrobe stats --db SOURCE` does not). Passwords are never printed.

            Exit status: 0 when the copy is made and checked, 1 when it is not, 128 plus the
            signal's number when a signal stopped it (130 for Ctrl-C), 64 for wrong usage.
            """)

    @Argument(name: "SOURCE DEST", help: "The catalogue to copy, then where the copy goes.",
              transform: ArgumentValues.cataloguePath)
    var catalogues: [String]
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        guard catalogues.count == 2 else {
            throw UsageError(catalogues.count < 2 ? "give SOURCE and DEST" : "give one SOURCE and one DEST")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let source = try console.setup.openCatalogue(explicit: catalogues[0], mode: .readOnly)
        let destination = try console.setup.catalogue(explicit: catalogues[1], mode: .create)
        // Ctrl-C, SIGTERM or a closed terminal ends the copy at once, removing a new catalogue
        // it was making (a stop leaves nothing to keep: the copy is one transaction).
        InterruptFlag.install()
        let copy = try source.copy(to: destination)
        if output.json {
            try console.json(copy, of: "the copy's report")
            return .success
        }
        let counts = [(copy.images, "image"), (copy.paths, "path"), (copy.classifications, "classification"),
                      (copy.corrections, "correction"), (copy.runs, "run"), (copy.models, "model")]
            .map { count, noun in "\(Format.count(count)) \(noun)\(count == 1 ? "" : "s")" }
        console.output("Copied \(copy.source) to \(copy.destination) in \(Format.duration(copy.seconds)): "
                       + counts.joined(separator: ", ") + "; \(copy.tables.count) tables, \(Format.count(copy.rows)) rows, "
                       + "each table's rows and SHA-256 the same in both")
        return .success
    }
}
