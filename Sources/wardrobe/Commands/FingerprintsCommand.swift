import CommandLineKit
import Wardrobe

/// `wardrobe fingerprints`
struct FingerprintsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "fingerprints",
        abstract: "Fingerprint images imported before fingerprints were kept.",
        discussion: """
            'wardrobe import' takes two perceptual fingerprints of each image from its stored
            thumbnail (of the whole picture and of the garment), which 'wardrobe duplicates'
            compares to find the same photo saved again resized, recompressed, cropped or
            brightened. Images imported by an earlier version have none until this command
            takes them, from their stored thumbnails only: no photo is read. Running it again
            takes only what is left.

            Exit status: 0 on success, 2 when some thumbnails could not be decoded (each named
            on stderr), 1 when the catalogue cannot be read or written, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let report = try catalogue.takeFingerprints()
        for failure in report.failed {
            console.error("image \(failure.image): \(failure.reason)")
        }
        let status: ExitStatus = report.failed.isEmpty ? .success : .partialFailure
        if output.json {
            try console.json(report, of: "the fingerprints report")
            return status
        }
        console.outputLines(Format.counts([
            ("taken", report.taken, "images whose thumbnail was fingerprinted"),
            ("unreadable", report.unreadable, "thumbnails that could not be decoded")]))
        return status
    }
}
