import Imaging
import Wardrobe

/// `wardrobe prep FILE [--recipe NAME] [--out FILE.png] [--thumbnail FILE.jpg]`
struct PrepCommand: Command {
    static let spec = CommandSpec(
        name: "prep",
        abstract: "Show the 28x28 tensor a prep recipe makes of an image.",
        usage: "[options] FILE",
        discussion: """
            Prints the image's facts, the recipe and the crop box it used, and the tensor as
            Unicode half blocks (grayscale on a terminal, shading characters otherwise or
            under NO_COLOR). Nothing is written to the catalogue.
            Recipes: \(PrepRecipes.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")).
            """,
        arguments: [("FILE", "An image file (JPEG or PNG, recognised by content).")],
        options: [
            .value("--recipe", "NAME", "The prep recipe (default: the one the model was trained for, else \(PrepRecipes.default.name))."),
            .model,
            .value("--out", "FILE.png", "Also write the tensor as a PNG, enlarged 10 times."),
            .value("--thumbnail", "FILE.jpg", "Also write the thumbnail the import would store (JPEG; PNG for images of at most 64 pixels)."),
        ])

    var file: String
    var recipe: String?
    var out: String?
    var model: String?
    var thumbnail: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let file = arguments.positionals.first else { throw arguments.usageError("missing FILE") }
        guard arguments.positionals.count == 1 else { throw arguments.usageError("give one FILE") }
        self.file = file
        recipe = arguments.value("--recipe")
        model = arguments.value("--model")
        out = arguments.value("--out")
        thumbnail = arguments.value("--thumbnail")
    }

    func run(_ console: Console) throws -> ExitStatus {
        let recipe = try console.setup.recipe(named: recipe, forModel: model)
        let result = try PrepPreview().run(path: file, recipe: recipe, tensorPNG: out, thumbnail: thumbnail)
        let image = result.processed
        let style = TerminalStyle.detect(environment: console.environment, isTerminal: console.stdoutIsTerminal)
        var facts = "\(file): \(image.format.rawValue) \(image.width)x\(image.height)"
        if image.orientation != .up { facts += ", EXIF orientation \(image.orientation.rawValue)" }
        if image.decodeScale != .one { facts += ", decoded at \(image.decodeScale)" }
        console.output(facts)
        console.output("recipe \(result.recipe), crop box \(result.tensor.cropBox)")
        console.output(TerminalPreview.tensor(result.tensor.values, style: style))
        if let out { console.output("wrote \(out) (280x280 tensor)") }
        if let thumbnail { console.output("wrote \(thumbnail) (\(image.thumbnailWidth)x\(image.thumbnailHeight) thumbnail)") }
        return .success
    }
}
