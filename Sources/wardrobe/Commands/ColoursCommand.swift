import CommandLineKit
import Wardrobe

/// `wardrobe colours`
struct ColoursCommand: Command {
    static let configuration = CommandConfiguration(
        name: "colours",
        abstract: "Measure the garment colours of images imported before they were kept.",
        discussion: """
            'wardrobe import' measures each garment's main colours on its stored thumbnail,
            under the mask the photo recipe finds (the whole thumbnail where it finds none),
            and names them from a fixed palette (black, white, grey, beige, brown, red, pink,
            orange, yellow, green, blue, navy, purple, multicolour). Images imported by an
            earlier version have none until this command measures them, from their stored
            thumbnails only: no photo is read. Running it again measures only what is left.
            When this version measures colours differently from the one that measured the
            catalogue's, it measures every image again (a person's colour stays as it was).
            'wardrobe list --colour blue' then finds them.

            Exit status: 0 on success, 2 when some thumbnails could not be decoded (each named
            on stderr), 1 when the catalogue cannot be read or written, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let report = try catalogue.measureColours()
        for failure in report.failed {
            console.error("image \(failure.image): \(failure.reason)")
        }
        let status: ExitStatus = report.failed.isEmpty ? .success : .partialFailure
        if output.json {
            try console.json(report, of: "the colours report")
            return status
        }
        let measured = report.again ? "images measured again, by this version's rule" : "images whose thumbnail was measured"
        console.outputLines(Format.counts([
            ("measured", report.measured, measured),
            ("unreadable", report.unreadable, "thumbnails that could not be decoded")]))
        return status
    }
}
