import BenchSupport
import Imaging

// MARK: - fingerprints

/// One line per image file under the given folders (PNG too): its path, then FNV-1a fingerprints of the
/// thumbnail an import stores and of the bit patterns of each recipe's tensor (every recipe
/// this build knows, in `PrepRecipes.all`'s order), as `ImageProcessor.process` makes them,
/// and of the garment's colours measured on the stored thumbnail.
/// Two builds that print the same lines for a set of photos store the same thumbnails and
/// hand the model the same tensors: what a change meant to make the import cheaper, and
/// nothing else, must keep (PrepStabilityTests pins a few such lines for the demo's photos).
/// A file that fails prints its error instead, so failures are compared too.
func fingerprints(_ options: BenchOptions) throws {
    let processor = ImageProcessor()
    let recipes = PrepRecipes.all
    print("# path thumbnail " + recipes.map(\.identity).joined(separator: " ") + " colours")
    for file in imageFiles(under: options.positionals, suffixes: [".jpg", ".jpeg", ".png", ".heic", ".heif", ".avif", ".webp"]) {
        do {
            let processed = try processor.process(contentsOf: file, recipes: recipes)
            let tensors = processed.tensors.map { tensor in
                fnv1a(tensor.values.lazy.map { UInt64($0.bitPattern) }) + "@" + tensor.cropBox.description
                    .replacingOccurrences(of: " ", with: "")
            }
            let colours = try processor.colours(ofThumbnail: processed.thumbnail)
            let measured = colours.colours.flatMap { [$0.share, $0.lab.lightness, $0.lab.a, $0.lab.b].map(\.bitPattern) }
            let colourPrint = "\(colours.main.rawValue)\(colours.onGarment ? "" : "(whole)")@" + fnv1a(measured)
            print(([file, fnv1a(processed.thumbnail.lazy.map { UInt64($0) })] + tensors + [colourPrint]).joined(separator: " "))
        } catch {
            print("\(file) error: \(error)")
        }
    }
}

/// FNV-1a over 64-bit words, in hex.
func fnv1a<Words: Sequence<UInt64>>(_ words: Words) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for word in words { hash = (hash ^ word) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
}
