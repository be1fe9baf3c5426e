import CommandLineKit
import Wardrobe

/// `wardrobe duplicates`, `--dismiss IMAGE...`
struct DuplicatesCommand: Command {
    static let configuration = CommandConfiguration(
        name: "duplicates",
        abstract: "List groups of images that are the same photo saved again (resized, recompressed, cropped, brightened).",
        discussion: """
            Files with the same bytes are already one image. This finds the same photo under
            another encoding: exported smaller from a phone, sent through a chat, cropped a
            little or brightened. Each image's perceptual fingerprints, taken at import from
            its thumbnail, are compared. Their crop distance is the fewest bits of 64 one's whole
            picture's fingerprint differs in from the other's whole picture or the other as if
            cropped; their garment distance, the same of their garments' fingerprints (the
            garment's box as if cropped); their distance, the garment distance plus one and a half
            times the crop distance. Two images are the same photo when their crop
            distance is at most \(DuplicateFinder.Rule.nearCrop), or at most \(DuplicateFinder.Rule.cropLimit) with a distance of at most
            \(DuplicateFinder.Rule.standard.distance) (--distance), and their garments'
            main measured colours are within \(Int(DuplicateFinder.Rule.standard.colourDifference))
            in CIELAB (where a person gave a colour: the same name). A group is every image
            reached through such pairs. Images imported by an earlier version are compared
            once 'wardrobe fingerprints' has taken theirs.

            --dismiss IMAGE... says the images are not the same photo: no pair of them is
            grouped again (an image added later can still join one of them). IMAGE is an id,
            the first hex digits of a SHA-256, or a path, as for 'show'; '-' reads them from
            stdin, one a line.

            \(QueryHelp.exitStatus)
            """)

    @Argument(name: "IMAGE...", help: "With --dismiss: the images of the group ('-' reads them from stdin).")
    var words: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--distance", value: "BITS",
            help: "The largest distance of the same photo (default: \(DuplicateFinder.Rule.standard.distance)).",
            in: 0...160)
    var distance: Int?
    @Flag(name: "--dismiss", help: "Keep the images given as not the same photo: the group does not come back.")
    var dismiss: Bool
    @OptionGroup var output: JSONOutputOption

    func validate() throws(UsageError) {
        if dismiss {
            if distance != nil { throw UsageError("--distance and --dismiss cannot be combined") }
            try ImageWords.validate(words)
        } else if !words.isEmpty {
            throw UsageError("IMAGE is given only with --dismiss")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        if dismiss { return try runDismiss(console) }
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readOnly)
        var rule = DuplicateFinder.Rule.standard
        if let distance { rule.distance = distance }
        let report = try catalogue.duplicates(rule: rule)
        if output.json {
            try console.json(report, of: "the duplicates")
            return .success
        }
        for (number, group) in report.groups.enumerated() {
            console.output("group \(number + 1): \(group.images.count) images")
            let rows = group.images.map { member in
                ["  " + String(member.image), String(member.sha256.prefix(10)), member.colour ?? "-",
                 member.distance == 0 && member.image == group.images[0].image ? "" : "\(member.distance) bits",
                 member.pathText]
            }
            console.outputLines(Format.table(rows, rightAligned: [0], width: console.terminalColumns, shrinking: 4))
        }
        var summary = "\(report.groups.count) group\(report.groups.count == 1 ? "" : "s") among \(report.fingerprinted) images"
        if report.unfingerprinted > 0 {
            // Images imported before a kind of fingerprint was kept are compared by those they have.
            summary += "; \(report.unfingerprinted) imported earlier lack some or all of their fingerprints "
                + "(compared by those they have): run 'wardrobe fingerprints'"
        }
        console.info(summary)
        return .success
    }

    private func runDismiss(_ console: Console) throws -> ExitStatus {
        let (references, places) = try ImageWords.references(words, console: console)
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: .readWrite)
        let images = try catalogue.dismissDuplicates(references, places: places)
        if output.json {
            try console.json(["dismissed": images], of: "the dismissed images")
            return .success
        }
        console.info("dismissed the group of \(images.count) images (\(images.map(String.init).joined(separator: ", ")))")
        return .success
    }
}
