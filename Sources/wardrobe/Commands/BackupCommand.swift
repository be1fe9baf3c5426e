import Foundation
import CommandLineKit
import Wardrobe

/// `wardrobe backup FILE`
struct BackupCommand: Command {
    static let configuration = CommandConfiguration(
        name: "backup",
        abstract: "Write a checked copy of the catalogue, safe while an import or a server is writing.",
        discussion: """
            The copy is one consistent snapshot, taken through SQLite's online backup API.
            It is written beside FILE, checked (integrity_check, schema version, every
            table's row count against the snapshot) and only then named FILE; an existing
            FILE, or one whose folder does not exist, is refused. A FILE that is a folder gets
            a new file in it, named after the catalogue and the time in UTC to the millisecond
            (catalogue-20261201-232500.123.sqlite; numbered, -2, when that name is taken). To
            restore, use the copy: `--db FILE`, or move it over the catalogue while no wardrobe
            command runs, and move the catalogue's -wal and -shm files out of the way (a
            backup beside another catalogue's -wal is refused, not opened; a copy made
            otherwise, as by cp, cannot be told from its own). Ctrl-C stops it within
            moments and removes the part already copied.

            Exit status: 0 when the copy is made and checked, 1 when it is not, 130 when Ctrl-C,
            SIGTERM or a closed terminal stopped it, 64 for wrong usage.
            """)

    @Argument(name: "FILE", help: "Where the copy goes (must not exist; its folder must), or a folder to put it in.",
              transform: ArgumentValues.outputPath)
    var files: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        guard !files.isEmpty else { throw UsageError("missing FILE") }
        guard files.count == 1 else { throw UsageError("give one FILE") }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        InterruptFlag.install()
        let backup: CatalogueBackup
        do {
            backup = try catalogue.backup(to: files[0])
        } catch let stop as CatalogueBackup.Interrupted {
            console.info("interrupted: \(stop)")
            return .interrupted
        }
        if output.json {
            try console.json(backup, of: "the backup's report")
            return .success
        }
        // Counted as `copy` counts: "1 image", not "1 images".
        let counts = [(backup.images, "image"), (backup.paths, "path"), (backup.classifications, "classification"),
                      (backup.runs, "run")]
            .map { count, noun in "\(Format.count(count)) \(noun)\(count == 1 ? "" : "s")" }
        console.output("Backed up \(backup.catalogue) to \(backup.backup) in \(Format.duration(backup.seconds)): "
                       + counts.joined(separator: ", ") + ", \(Format.bytes(backup.bytes)); integrity \(backup.integrity)")
        return .success
    }
}
