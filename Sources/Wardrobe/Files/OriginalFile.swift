internal import Catalogue
import Imaging

/// An image's own file, as the larger view and the capture-time pass read it:
/// the first of its recorded paths (best first: present, then most recently
/// seen) whose file is still there and still has the image's SHA-256. A file
/// changed or replaced since import is passed over, never read as the image,
/// and no path comes from anywhere but the catalogue.
enum OriginalFile {
    /// The file's bytes; nil when none of `paths` still holds the image.
    static func bytes(of sha256: SHA256Digest, paths: [KnownPath]) -> [UInt8]? {
        for path in paths {
            // Gone, unreadable or not a regular file: the next one.
            guard let bytes = try? ImageFile.read(path.path), SHA256.digest(bytes) == sha256.bytes else { continue }
            return bytes
        }
        return nil
    }
}
