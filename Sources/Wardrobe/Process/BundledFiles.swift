import Foundation

/// Finds files shipped with the tool wherever the binary runs from: installed
/// (`PREFIX/bin/wardrobe` beside `PREFIX/share/wardrobe/`) or in a checkout
/// (`.build/<config>/wardrobe` below the package's `Models/` and `Fixtures/`).
public enum BundledFiles {
    public static let modelName = "clothing.aimodel"
    public static let sampleName = "fashion-sample.png"
    /// The prep recipe the sample is classified with: it is a Fashion-MNIST test image.
    public static let sampleRecipe = "fashion-mnist"

    /// The bundled model (`--model` and `$WARDROBE_MODEL` are `WardrobeSetup.modelPath`'s).
    /// Nil when it is not found.
    public static func model(executable: URL) -> String? {
        locate(modelName, checkoutFolder: "Models", executable: executable)
    }

    /// The Fashion-MNIST test image that `classify --sample` uses.
    public static func sample(executable: URL) -> String? {
        locate(sampleName, checkoutFolder: "Fixtures", executable: executable)
    }

    static func locate(_ name: String, checkoutFolder: String, executable: URL) -> String? {
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [
            binDirectory.deletingLastPathComponent().appendingPathComponent("share/wardrobe/\(name)").path,
            binDirectory.appendingPathComponent(name).path,
        ]
        var directory = binDirectory
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("\(checkoutFolder)/\(name)").path)
            directory.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
