/// The formats the module decodes, recognised from their first bytes, never from a file name.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case jpeg
    case png
    /// HEIF with HEVC-coded images (HEIC, as phones save them), through libheif.
    case heif
    /// HEIF with AV1-coded images, through libheif.
    case avif
    /// Lossy or lossless, still or animated, through libwebp.
    case webp

    /// The name people know the format by, for messages.
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .webp: "WebP"
        }
    }

    /// Every format's name in a phrase, for messages and help: "JPEG, PNG, HEIF, AVIF or WebP".
    public static func names(joinedBy conjunction: String) -> String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }

    /// The most bytes `sniff` reads: a file's first this many tell its format as well as the
    /// whole file does.
    public static let sniffedLength = FileTypeBox.longestRead

    /// The format whose signature starts `bytes`, or nil when the bytes are no image this
    /// module reads.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        let head = Array(bytes.prefix(FileTypeBox.longestRead))
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return FileTypeBox(head)?.format
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
        if ascii(0..<2) == "BM" { return "BMP" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        return nil
    }
}

/// The ISO base media `ftyp` box that opens every HEIF file: its major brand and the
/// compatible brands say whether the images inside are HEVC (HEIC) or AV1 (AVIF). MP4 and
/// QuickTime files open with the same box and other brands, and are not images.
struct FileTypeBox {
    /// Enough for the brands of any real file; a longer box is read this far only.
    static let longestRead = 256
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands that only say "some HEIF structure"; the compatible brands decide the codec.
    static let structuralBrands: Set<String> = ["mif1", "msf1", "miaf", "mif2"]

    var majorBrand: String
    var compatibleBrands: [String]

    init?(_ head: [UInt8]) {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard size >= 16 else { return nil }
        func brand(at offset: Int) -> String { String(decoding: head[offset..<offset + 4], as: UTF8.self) }
        majorBrand = brand(at: 8)
        compatibleBrands = stride(from: 16, to: min(size, head.count) - 3, by: 4).map(brand)
    }

    var format: ImageFormat? {
        let brands = [majorBrand] + compatibleBrands
        if Self.avifBrands.contains(majorBrand) { return .avif }
        if Self.heifBrands.contains(majorBrand) { return .heif }
        guard Self.structuralBrands.contains(majorBrand) || brands.contains(where: Self.structuralBrands.contains) else {
            return nil
        }
        if brands.contains(where: Self.avifBrands.contains) { return .avif }
        if brands.contains(where: Self.heifBrands.contains) || Self.structuralBrands.contains(majorBrand) { return .heif }
        return nil
    }
}

extension FileTypeBox {
    /// Where a file cut short ends ("inside its 'mdat' box"), from the sizes of its top-level
    /// boxes; nil when they fit. libheif would report only what it then misses ("no 'meta' box").
    static func truncation(in bytes: [UInt8]) -> String? {
        var offset = 0
        while offset + 8 <= bytes.count {
            func u32(_ at: Int) -> Int {
                Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            }
            // A damaged type may hold any byte; only printable ones reach the message.
            let name = String(bytes[(offset + 4)..<(offset + 8)].map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "?" })
            var size = u32(offset)
            if size == 0 { return nil }   // runs to the end of the file, whatever its length
            if size == 1 {                // a 64-bit size follows the type
                guard offset + 16 <= bytes.count else { return "inside its '\(name)' box" }
                size = u32(offset + 8) << 32 | u32(offset + 12)
            }
            guard size >= 8 else { return nil }   // damaged, not cut: libheif says what is wrong
            if size > bytes.count - offset { return "inside its '\(name)' box" }
            offset += size
        }
        return offset < bytes.count ? "inside a box header" : nil
    }
}
