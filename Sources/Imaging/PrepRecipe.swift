import ClothingContract

/// A way of turning an upright image into the model's input: a one-channel square tensor of
/// the contract's side (`Contract.side`) with values in 0...1. The name and version
/// identify the recipe in the catalogue, so a change to what a recipe computes must come with
/// a new version.
public protocol PrepRecipe: Sendable {
    var name: String { get }
    var version: Int { get }
    /// One line saying what the recipe does, for listings.
    var summary: String { get }
    func prepare(_ image: Bitmap) -> PreparedTensor
}

extension PrepRecipe {
    /// "name@version", as stored and shown.
    public var identity: String { "\(name)@\(version)" }
}

/// The model's input for one image, and the part of the image it was made from.
public struct PreparedTensor: Sendable, Equatable {
    public static let side = Contract.side
    public static let count = Contract.valuesPerImage

    /// `count` values in 0...1, row-major.
    public var values: [Float]
    /// The region of the prepared image the tensor shows, in that image's pixels.
    public var cropBox: PixelRect

    public init(values: [Float], cropBox: PixelRect) {
        precondition(values.count == Self.count, "a prepared tensor has \(Self.side)x\(Self.side) values")
        self.values = values
        self.cropBox = cropBox
    }

    /// The values as bytes 0...255 (rounded), e.g. to write a PNG.
    public var bytes: [UInt8] {
        values.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
    }
}

/// The recipes this build knows, by name.
public enum PrepRecipes {
    public static let fashionMNIST: any PrepRecipe = FashionMNISTRecipe()
    public static let photo: any PrepRecipe = PhotoRecipe()

    /// Every recipe at its current version, the default first.
    public static let all: [any PrepRecipe] = [photo, fashionMNIST]

    /// Earlier versions, kept so that a model trained on one is still given what it learned
    /// from; found by "name@version" only. Every photo version before the current one, so a
    /// new version needs no entry here.
    public static let earlier: [any PrepRecipe] = (1..<PhotoRecipe.currentVersion).map { PhotoRecipe(version: $0) }

    /// The recipe for imported photos.
    public static var `default`: any PrepRecipe { all[0] }

    public static var names: [String] { all.map(\.name) }

    /// The recipe called `name`: a bare name for the current version, or "name@version" for
    /// that version, current or earlier.
    public static func named(_ name: String) throws(ImagingError) -> any PrepRecipe {
        if let recipe = all.first(where: { $0.name == name || $0.identity == name }) { return recipe }
        if let recipe = earlier.first(where: { $0.identity == name }) { return recipe }
        throw ImagingError(.unknownRecipe, "unknown prep recipe '\(name)' (known: \(names.joined(separator: ", ")))")
    }
}
