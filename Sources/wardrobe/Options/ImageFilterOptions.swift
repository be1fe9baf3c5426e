import Foundation
import CommandLineKit
import Wardrobe

/// The filters that choose images by their label, confidence, date, model or path:
/// `list` shows what they choose, and `export` writes the same images.
struct ImageFilterOptions: ParsableArguments {
    @Option(name: "--label", value: "LABEL", help: "Only images whose label (a person's, else the model's) is LABEL.",
            transform: ArgumentValues.label)
    var label: Int?
    @Flag(name: "--corrected", help: "Only images a person labelled.")
    var corrected: Bool
    @Flag(name: "--uncorrected", help: "Only images no person labelled.")
    var uncorrected: Bool
    @Flag(name: "--missing", help: "Only images none of whose files was there at the last look (see 'wardrobe prune').")
    var missing: Bool
    @Option(name: "--path", value: "PATTERN", help: "Only images with a path matching PATTERN: a shell pattern (*, ?, [...]), or text found anywhere in the path.")
    var path: String?
    @Option(name: "--folder", value: "FOLDER", help: "Only images with a file in FOLDER or a folder below it.")
    var folder: String?
    @Option(name: "--min-confidence", value: "P", help: "Only images with confidence >= P (\(ArgumentValues.confidenceHelp)).",
            transform: ArgumentValues.confidence)
    var minConfidence: Double?
    @Option(name: "--max-confidence", value: "P", help: "Only images with confidence <= P (\(ArgumentValues.confidenceHelp)).",
            transform: ArgumentValues.confidence)
    var maxConfidence: Double?
    @Option(name: "--since", value: "DATE",
            help: "Only images first imported at or after DATE (\(DateArgument.accepted)).",
            transform: ArgumentValues.date)
    var since: Date?
    @Option(name: "--until", value: "DATE",
            help: "Only images first imported before DATE.", transform: ArgumentValues.date)
    var until: Date?
    @Option(name: "--taken-after", value: "DATE",
            help: "Only photos taken at or after DATE, as their EXIF says (\(DateArgument.accepted)).",
            transform: ArgumentValues.date)
    var takenAfter: Date?
    @Option(name: "--taken-before", value: "DATE", help: "Only photos taken before DATE.", transform: ArgumentValues.date)
    var takenBefore: Date?
    @Option(name: "--model", value: "MODEL",
            help: "Only images whose current label came from MODEL: a model file, its name, name@version, id or hash prefix.")
    var model: String?
    @Option(name: "--colour", value: "NAMES",
            help: "Only images whose garment is one of these colours, comma-separated (\(ImageFilter.colourNames.joined(separator: ", "))).",
            transform: ArgumentValues.colours)
    var colour: [String]?

    func validate() throws(UsageError) {
        if let low = minConfidence, let high = maxConfidence, low > high {
            throw UsageError("--min-confidence \(low) is above --max-confidence \(high)")
        }
        if let since, let until, since >= until {
            throw UsageError("--since is not before --until")
        }
        if let takenAfter, let takenBefore, takenAfter >= takenBefore {
            throw UsageError("--taken-after is not before --taken-before")
        }
        // An empty name (`--colour ,`, `blue,,`) named no colour and listed nothing, as if none matched.
        if colour?.contains("") == true {
            throw UsageError("--colour: an empty name in the list; give colours as NAME or NAME,NAME")
        }
        if corrected && uncorrected { throw UsageError("--corrected and --uncorrected cannot be combined") }
    }

    /// These filters as Wardrobe takes them.
    var filter: ImageFilter {
        ImageFilter(label: label, corrected: corrected ? true : uncorrected ? false : nil, missing: missing, path: path,
                    folder: folder, minConfidence: minConfidence, maxConfidence: maxConfidence, since: since, until: until,
                    model: model, takenAfter: takenAfter, takenBefore: takenBefore,
                    colours: colour.map { names in names.enumerated().filter { !names[..<$0.offset].contains($0.element) }.map(\.element) })
    }

    /// The listing's options with these filters, in `order`.
    func listing(order: ImageListing.Order, limit: Int? = nil, offset: Int = 0) -> ImageListing.Options {
        ImageListing.Options(filter: filter, order: order, limit: limit, offset: offset)
    }
}
