import CommandLineKit
import Files
import Foundation
import Wardrobe

/// `wardrobe prep FILE [--recipe NAME] [--out FILE.png] [--thumbnail FILE.jpg]`
struct PrepCommand: Command {
    static let configuration = CommandConfiguration(
        name: "prep",
        abstract: "Show the 28x28 tensor a prep recipe makes of an image.",
        discussion: """
            Prints the image's facts, the recipe and the crop box it used, and the tensor as
            Unicode half blocks (grayscale on a terminal, shading characters otherwise or
            under NO_COLOR). Nothing is written to the catalogue.
            Recipes: \(PrepPreview.recipes.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")).
            """)

    @Argument(name: "FILE", help: "An image file (\(ReadableFormats.names), recognised by content).",
              transform: ArgumentValues.inputPath)
    var files: [String]
    @Option(name: "--recipe", value: "NAME",
            help: "The prep recipe (default: the model's, else \(PrepPreview.defaultRecipeName)).",
            transform: ArgumentValues.recipe)
    var recipe: String?
    @OptionGroup var model: ModelOptions
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--out", value: "FILE.png", help: "Also write the tensor as a PNG, enlarged 10 times.",
            transform: ArgumentValues.outputPath)
    var out: String?
    @Option(name: "--thumbnail", value: "FILE.jpg",
            help: "Also write the thumbnail the import would store (JPEG; PNG for images of at most 64 pixels).",
            transform: ArgumentValues.outputPath)
    var thumbnail: String?

    func validate() throws(UsageError) {
        guard !files.isEmpty else { throw UsageError("missing FILE") }
        guard files.count == 1 else { throw UsageError("give one FILE") }
        // The second would replace the first.
        if let out, let thumbnail, Self.sameFile(out, thumbnail) {
            throw UsageError("--out and --thumbnail name the same file (\(out)); give each its own")
        }
    }

    /// The same path once written out, or the same file under two names (a link).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        // By bytes: `café.png` and `cafe\u{301}.png` are one string to Swift and two files.
        if PathName.same(URL(fileURLWithPath: first).standardizedFileURL.path,
                         URL(fileURLWithPath: second).standardizedFileURL.path) {
            return true
        }
        guard let one = PhotoFinder.FileIdentity(path: first), let other = PhotoFinder.FileIdentity(path: second) else {
            return false
        }
        return one == other
    }

    func run(_ console: Console) throws -> ExitStatus {
        let file = files[0]
        let catalogue = try console.setup.catalogue(explicit: self.catalogue.path, mode: .readOnly)
        let recipe = try catalogue.recipe(named: self.recipe, model: model.path)
        // A signal while --out or --thumbnail is written leaves neither a part nor a changed file.
        InterruptFlag.install()
        let result = try PrepPreview().run(path: file, recipe: recipe, tensorPNG: out, thumbnail: thumbnail,
                                           sparing: catalogue.files)
        let image = result.processed
        let style = PreviewStyle.detect(environment: console.environment, isTerminal: console.stdoutIsTerminal)
        var facts = "\(file): \(image.format.rawValue) \(image.width)x\(image.height)"
        if image.orientation != .up { facts += ", EXIF orientation \(image.orientation.rawValue)" }
        if image.decodeScale != .one { facts += ", decoded at \(image.decodeScale)" }
        console.output(facts)
        console.output("recipe \(result.recipe), crop box \(result.tensor.cropBox)")
        console.picture(result.tensorPicture(style: style))
        if let out { console.output("wrote \(out) (280x280 tensor)") }
        if let thumbnail { console.output("wrote \(thumbnail) (\(image.thumbnailWidth)x\(image.thumbnailHeight) thumbnail)") }
        return .success
    }
}
