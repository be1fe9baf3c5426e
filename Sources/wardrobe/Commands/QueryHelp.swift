import CommandLineKit
import Wardrobe

/// Help text shared by the commands that take an image.
enum QueryHelp {
    static let imageArgument = "ID|HASH-PREFIX|PATH"
    static let imageHelp =
        "An image id (as 'wardrobe list' shows it), the first hex digits of its SHA-256, or a path it was imported from."

    static let exitStatus = """
        Exit status: 0 on success; 1 when the image is not in the catalogue, a hash
        prefix matches several images, or the catalogue cannot be read; 64 for wrong usage.
        """


    /// The count rule of `show` and `history`: exactly one image.
    static func requireOne(_ images: [ImageReference]) throws(UsageError) {
        guard !images.isEmpty else { throw UsageError("missing ID, HASH-PREFIX or PATH of an image") }
        guard images.count == 1 else { throw UsageError("one image at a time; got \(images.count)") }
    }
}
