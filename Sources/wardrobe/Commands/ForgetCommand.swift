import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe forget IMAGE...`, `forget -` (the images on stdin, one a line)
struct ForgetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "forget",
        abstract: "Remove images for good: paths, thumbnail, classifications, labels and colours.",
        discussion: """
            The one command that deletes history. It exists for privacy: the freed space in
            the catalogue is overwritten and its write-ahead log emptied, so the thumbnail's
            bytes stay in neither file. Backups of the catalogue keep what they hold. On a
            terminal it asks first; otherwise it needs --yes.

            IMAGE is an id, the first hex digits of a SHA-256, or a path, as for 'show'; '-'
            reads them from stdin, one a line (the ids of 'wardrobe list --ids', or the rows
            of 'wardrobe list --csv'), and needs --yes:
              wardrobe list --label none --ids | wardrobe forget --yes -
            An image or a line that names no image is named on stderr, one line each, and
            the others are still forgotten.

            Exit status: 0 when every image named was forgotten; 2 when some were and others
            named no image; 1 when none was, or the catalogue cannot be read; 64 for wrong
            usage.
            """)

    @Argument(name: QueryHelp.imageArgument + "...", help: QueryHelp.imageHelp + " '-' reads them from stdin.")
    var words: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @Flag(name: "--yes", short: "y", help: "Do not ask: forget the images.")
    var yes: Bool
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        if words.isEmpty { throw UsageError("missing ID, HASH-PREFIX or PATH of an image ('-' for stdin)") }
        try ImageWords.validate(words)
        // The question is asked on stdin, which the list is read from.
        if !yes && words.contains("-") { throw UsageError("forget - reads the images from stdin, so it cannot ask there: give --yes") }
        if !yes && isatty(STDIN_FILENO) != 1 {
            throw UsageError("forget deletes for good: give --yes when not asked on a terminal")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        var unnamed = 0
        let (references, places) = try ImageWords.references(words, console: console) { line in
            console.error(line)
            unnamed += 1
        }
        guard !references.isEmpty else {
            console.info(unnamed == 0 ? "no images given on stdin; nothing was forgotten" : "nothing was forgotten")
            return unnamed == 0 ? .success : .failure
        }
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let found = try catalogue.imagesToForget(references, places: places)
        for error in found.unnamed { console.error(error.description) }
        unnamed += found.unnamed.count
        guard !found.images.isEmpty else {
            console.info("nothing was forgotten")
            return .failure
        }
        if !yes {
            for image in found.images { console.info("  \(image.id)  \(image.sha256.prefix(12))  \(image.path ?? "-")") }
            console.info("Forget \(found.images.count) image\(found.images.count == 1 ? "" : "s") for good? [y/N]")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                console.info("nothing was forgotten")
                return .success
            }
        }
        let report = try catalogue.forget(found.images)
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
        return unnamed == 0 ? .success : .partialFailure
    }
}
