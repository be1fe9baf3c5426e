import CommandLineKit
import Wardrobe

/// `wardrobe capture-times`
struct CaptureTimesCommand: Command {
    static let configuration = CommandConfiguration(
        name: "capture-times",
        abstract: "Read when each photo was taken (EXIF) for images imported before that was kept.",
        discussion: """
            'wardrobe import' keeps when each photo was taken: its EXIF DateTimeOriginal, with
            OffsetTimeOriginal where the file has it. Images imported by an earlier version have
            none until this command reads it from their own file: the first recorded one still
            there with the image's SHA-256 (a file changed since import is passed over). Only the
            header is read. An image with no such file left is counted and tried again next time.
            Each image is read once; running it again reads only what is left.

            Exit status: 0 on success, 1 when the catalogue cannot be read or written, 64 for
            wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var output: JSONOutputOption

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let report = try catalogue.readCaptureTimes()
        if output.json {
            try console.json(report, of: "the capture-times report")
            return .success
        }
        console.outputLines(Format.counts([
            ("read", report.read, "images whose file was read"),
            ("taken", report.taken, "of them say when they were taken"),
            ("no file", report.noFile, "have no file left as imported (tried again next time)")]))
        return .success
    }
}
