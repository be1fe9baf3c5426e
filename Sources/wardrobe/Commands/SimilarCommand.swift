import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe similar ID|HASH-PREFIX|PATH`
struct SimilarCommand: Command {
    static let configuration = CommandConfiguration(
        name: "similar",
        abstract: "List the images nearest one image: the same photo saved again first, then what looks alike.",
        discussion: """
            Each image is compared by what the catalogue holds of it: its perceptual
            fingerprints (whole picture and garment, taken at import), its garment's measured
            colour and the label probabilities of its current classification. The distance,
            0 to 1.5, is the share of the 128 fingerprint bits that differ, plus a quarter
            of the CIELAB distance between the main colours (over 100), plus a quarter of
            the difference between the label probabilities; a fact either image lacks counts
            half. A copy of the photo (resized, recompressed, cropped, brightened) is
            usually first. Images imported by an earlier version are compared once
            'wardrobe fingerprints' has taken theirs.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: QueryHelp.imageArgument, help: QueryHelp.imageHelp, transform: ArgumentValues.image)
    var images: [ImageReference]
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--limit", value: "N", help: "How many images to list (default 10).", in: 1...1000)
    var limit = 10
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        try QueryHelp.requireOne(images)
    }

    func run(_ console: Console) throws -> ExitStatus {
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        let report = try catalogue.similar(to: images[0], limit: limit)
        guard report.fingerprinted else {
            console.error("image \(report.image) has no fingerprints yet: run 'wardrobe fingerprints'")
            return .failure
        }
        if output.json {
            try console.json(report, of: "the similar images")
            return .success
        }
        let rows = report.neighbours.map { neighbour in
            [String(neighbour.image), String(neighbour.sha256.prefix(10)), String(format: "%.3f", neighbour.distance),
             "\(neighbour.bits) bits", neighbour.label ?? "-", neighbour.colour ?? "-", neighbour.pathText]
        }
        console.outputLines(Format.table(rows, rightAligned: [0, 2, 3], width: console.terminalColumns, shrinking: 6))
        console.info("nearest \(report.neighbours.count) of \(report.compared) images to image \(report.image)")
        return .success
    }
}
