internal import Catalogue
import Files
import Foundation
import Imaging

/// How a person names one stored image on the command line: its id (as
/// `list` shows it), a prefix of its SHA-256 in hex, or a path it was
/// imported from.
public enum ImageReference: Sendable, Equatable {
    /// An image's id, as `list` shows it.
    case id(Int64)
    case hashPrefix(String)
    case path(String)

    /// Reads `text`: all digits is an id (or, when no image has that id, a
    /// hash prefix); other hex digits a hash prefix; anything with a slash,
    /// or naming an existing file, a path.
    ///
    /// Digits that start with 0 (other than 0 itself, which no image has) are a hash prefix: no
    /// id is written so (`list` shows 7, never 007). Read as an id, `0539` fell back to the hash
    /// prefix of the number's digits, `539`, so `label coat 0539` labelled an image whose hash
    /// starts 539, and `show 071` did not find the image whose hash starts 071.
    public init(_ text: String) throws(WardrobeError) {
        let isDigits = !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let isHex = !text.isEmpty && text.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit)
        if text.contains("/") || FileManager.default.fileExists(atPath: text) {
            self = .path(PathName.absolute(text))
        } else if isDigits, text == "0" || !text.hasPrefix("0"), let id = Int64(text) {
            self = .id(id)
        } else if isHex, text.count <= 64 {
            self = .hashPrefix(text.lowercased())
        } else if text.contains(".") {
            self = .path(PathName.absolute(text))
        } else {
            throw .invalidArgument("'\(text)' is not an image id, a hash prefix (hex digits) or a path")
        }
    }

    /// The stored image this names. Unknown, or a prefix several images
    /// share, is an error saying so.
    func resolve(in catalogue: any CatalogueStore) throws -> ImageRecord {
        switch self {
        case .id(let number):
            let id = ImageID(number)
            if let image = try catalogue.image(id) { return image }
            // Digits may also have been meant as the start of a hash.
            let digits = id.description
            if digits.count <= 64, let image = try? catalogue.image(hashPrefix: digits) { return image }
            throw WardrobeError.notFound("image \(id) in \(catalogue.path)")
        case .hashPrefix(let prefix):
            do {
                if let image = try catalogue.image(hashPrefix: prefix) { return image }
            } catch CatalogueError.ambiguousHashPrefix(let prefix, let matches) {
                throw WardrobeError.invalidArgument("hash prefix \(prefix) matches \(matches) images; give more digits")
            }
            throw WardrobeError.notFound("image with hash prefix \(prefix) in \(catalogue.path)")
        case .path(let path):
            if let image = try catalogue.image(path: path) {
                try Self.requireSamePhoto(path, known: try catalogue.knownPath(path), image: image)
                return image
            }
            // A symbolic link to an imported file, or through a linked folder.
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            if resolved != path, let image = try catalogue.image(path: resolved) {
                try Self.requireSamePhoto(path, known: try catalogue.knownPath(resolved), image: image)
                return image
            }
            if let (form, image) = try Self.otherForm(of: path, in: catalogue) {
                try Self.requireSamePhoto(form, known: try catalogue.knownPath(form), image: image)
                return image
            }
            throw WardrobeError.notFound("image imported from \(path) in \(catalogue.path)")
        }
    }

    /// The image stored under `path` written in the other usual Unicode form, when no file has
    /// the name as given: an é typed as one character (as keyboards type it) where the file,
    /// copied from macOS, has e and U+0301, or the other way. The two look the same in every
    /// output, and import keeps only one of them on a machine, so that one is meant; it was
    /// 'not found', naming a path that showed as the stored one. A file with the name as given
    /// is another file, and names no image of the other's.
    private static func otherForm(of path: String, in catalogue: any CatalogueStore) throws -> (String, ImageRecord)? {
        var status = stat()
        guard lstat(path, &status) != 0 else { return nil }
        for form in PathName.otherForms(of: path) {
            if let image = try catalogue.image(path: form) { return (form, image) }
        }
        return nil
    }

    /// A path names the image imported from it, but a person naming a file means the photo
    /// it holds now: one edited in place or replaced since (and not imported again) would
    /// have a label, a colour or `forget` land on a photo nobody sees there, and a fine-tune
    /// learn it under that label. A file whose size and time are as recorded, or that is
    /// gone, names its image; one changed is read, and names it only with the same content.
    private static func requireSamePhoto(_ path: String, known: KnownPath?, image: ImageRecord) throws {
        guard let known, let seen = SeenFile.now(at: path) else { return }
        if known.isUnchanged(seen) { return }
        guard let bytes = try? RegularFile.read(path, maxSize: ImageFile.maxFileSize),
              SHA256.digest(bytes) != image.sha256.bytes else { return }
        throw WardrobeError.invalidArgument("\(path): the file holds another photo than the one imported from there "
            + "(image \(image.id)); import it again to name the photo it holds now, or name image \(image.id) by its id")
    }
}
