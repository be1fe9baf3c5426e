import Files
import Imaging

/// `wardrobe prep FILE`: what a prep recipe makes of one image, to look at. Low accuracy on a
/// real photo is usually a prep problem; this shows the tensor the model would see.
public struct PrepPreview {
    public struct Result: Sendable {
        public var path: String
        public var processed: ProcessedImage
        public var recipe: String
        public var tensor: PreparedTensor { processed.tensor }

        /// The tensor drawn with Unicode half blocks.
        public func tensorPicture(style: PreviewStyle) -> String {
            TerminalPreview.tensor(tensor.values, style: style)
        }
    }

    /// Every recipe's name and what it does, for help.
    public static var recipes: [(name: String, summary: String)] { PrepRecipes.all.map { ($0.name, $0.summary) } }
    /// The recipe used when none is named.
    public static var defaultRecipeName: String { PrepRecipes.default.name }

    let processor: ImageProcessor

    public init(processor: ImageProcessor = ImageProcessor()) {
        self.processor = processor
    }

    /// Decodes and prepares the file; with `tensorPNG` writes the tensor enlarged `scale` times,
    /// with `thumbnail` writes the thumbnail JPEG.
    /// Neither output replaces the image itself nor any of `inputs` (the catalogue).
    public func run(path: String, recipe: any PrepRecipe, tensorPNG: String? = nil, scale: Int = 10,
                    thumbnail: String? = nil, sparing inputs: [OutputFile.Input] = []) throws(ImagingError) -> Result {
        let inputs = inputs + [OutputFile.Input(path: path, role: "the image being prepared")]
        let processed = try processor.process(contentsOf: path, recipe: recipe)
        if let tensorPNG {
            try ImageFile.write(try TensorImage.png(processed.tensor.values, scale: scale), to: tensorPNG, sparing: inputs)
        }
        if let thumbnail {
            try ImageFile.write(processed.thumbnail, to: thumbnail, sparing: inputs)
        }
        return Result(path: path, processed: processed, recipe: recipe.identity)
    }
}
