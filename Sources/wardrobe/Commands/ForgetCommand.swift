import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe forget IMAGE...`
struct ForgetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "forget",
        abstract: "Remove images for good: paths, thumbnail, classifications, labels and colours.",
        discussion: """
            The one command that deletes history. It exists for privacy: the freed space in
            the catalogue is overwritten and its write-ahead log emptied, so the thumbnail's
            bytes stay in neither file. Backups of the catalogue keep what they hold. On a
            terminal it asks first; otherwise it needs --yes.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: QueryHelp.imageArgument + "...", help: QueryHelp.imageHelp, transform: ArgumentValues.image)
    var images: [ImageReference]
    @OptionGroup var catalogue: CatalogueOptions
    @Flag(name: "--yes", short: "y", help: "Do not ask: forget the images.")
    var yes: Bool
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        if images.isEmpty { throw UsageError("missing ID, HASH-PREFIX or PATH of an image") }
        if !yes && isatty(STDIN_FILENO) != 1 {
            throw UsageError("forget deletes for good: give --yes when not asked on a terminal")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let found = try catalogue.imagesToForget(images)
        if !yes {
            for image in found { console.info("  \(image.id)  \(image.sha256.prefix(12))  \(image.path ?? "-")") }
            console.info("Forget \(found.count) image\(found.count == 1 ? "" : "s") for good? [y/N]")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                console.info("nothing was forgotten")
                return .success
            }
        }
        let report = try catalogue.forget(found)
        if output.json {
            try console.json(report, of: "the forget report")
        } else {
            // Each count takes its number, as copy's line does: it said "1 paths, 1 classifications".
            let counts = [(report.paths, "path"), (report.classifications, "classification"), (report.corrections, "label"),
                          (report.colourCorrections, "colour")]
                .map { count, noun in "\(Format.count(count)) \(noun)\(count == 1 ? "" : "s")" }
            console.output("Forgot \(Format.count(report.images)) image\(report.images == 1 ? "" : "s"): "
                           + counts.joined(separator: ", "))
        }
        if let note = report.serverNote { console.warning(note) }
        if !report.logEmptied {
            console.warning("another process is reading the catalogue: the removed bytes leave its -wal file "
                            + "when it finishes (or at the next forget)")
        }
        return .success
    }
}
