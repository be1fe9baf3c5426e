import CommandLineKit
import Wardrobe

/// `wardrobe prune [PATH...]`
struct PruneCommand: Command {
    static let configuration = CommandConfiguration(
        name: "prune",
        abstract: "Check that the files behind known paths are still there, and mark the gone ones missing.",
        discussion: """
            Looks at every known path, or those under each PATH, without reading any file.
            A gone file's path stays, marked missing ('wardrobe show' lists it, 'wardrobe list
            --missing' finds images with no file left); one that is back is marked present.
            With --drop-missing the records of gone paths are removed: the image stays, with
            its thumbnail and history, listed as having no file. 'wardrobe import' of a
            folder marks the gone files under that folder by itself. A file that failed to
            import and is gone is dropped from 'wardrobe failures'. A PATH with no known path
            at or under it is named in a warning (nothing was looked at there).

            Exit status: 0 on success, 1 when the catalogue cannot be read or written, 64 for
            wrong usage.
            """)

    @Argument(name: "PATH...", help: "Only known paths under these folders (or these files).")
    var paths: [String] = []
    @OptionGroup var catalogue: CatalogueOptions
    @Flag(name: "--drop-missing", help: "Remove the records of paths whose files are gone (their images stay).")
    var dropMissing: Bool
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let report = try catalogue.prune(paths, dropMissing: dropMissing)
        // A prune asked of a path that holds nothing known did nothing there: said, not passed over.
        for path in report.unknownPaths {
            console.warning("\(path): no known path is there or under it; nothing was looked at there")
        }
        if output.json {
            try console.json(report, of: "the prune report")
            return .success
        }
        var rows = [("checked", report.checked, "known paths looked at"),
                    ("missing", report.missing, "files gone (\(report.newlyMissing) since the last look)")]
        if report.back > 0 { rows.append(("back", report.back, "files there again")) }
        if dropMissing { rows.append(("dropped", report.dropped, "records of gone paths removed")) }
        if report.goneFailures > 0 {
            rows.append(("failures", report.goneFailures, "files that failed to import are gone; dropped from 'wardrobe failures'"))
        }
        console.outputLines(Format.counts(rows))
        return .success
    }
}
