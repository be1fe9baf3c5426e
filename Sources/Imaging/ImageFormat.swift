/// The formats the module decodes, recognised from their first bytes, never from a file name.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case jpeg
    case png

    /// The format whose signature starts `bytes`, or nil when the bytes are no image this
    /// module reads.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// A short name for a format this module recognises but does not decode, so that the
    /// error can say "a GIF image" rather than "not an image".
    static func otherFormatName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        let head = Array(bytes.prefix(12))
        func ascii(_ range: Range<Int>) -> String? {
            guard head.count >= range.upperBound else { return nil }
            return String(decoding: head[range], as: UTF8.self)
        }
        if ascii(0..<4) == "GIF8" { return "GIF" }
        if ascii(0..<4) == "RIFF" && ascii(8..<12) == "WEBP" { return "WebP" }
        if ascii(0..<2) == "BM" { return "BMP" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if ascii(4..<8) == "ftyp" {
            let brand = ascii(8..<12) ?? ""
            return ["heic", "heix", "mif1", "heim", "heis", "hevc"].contains(brand) ? "HEIF" :
                   brand == "avif" ? "AVIF" : nil
        }
        return nil
    }
}
