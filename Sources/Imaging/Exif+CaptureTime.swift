extension Exif {
    static let exifIFDTag: UInt64 = 0x8769
    static let dateTimeOriginalTag: UInt64 = 0x9003
    static let offsetTimeOriginalTag: UInt64 = 0x9011

    /// When the photo in a TIFF block was taken: `DateTimeOriginal` and `OffsetTimeOriginal`
    /// from its Exif IFD (which the first IFD points to); nil when absent or unreadable.
    public static func captureTime<Bytes: RandomAccessCollection<UInt8>>(inTIFF bytes: Bytes) -> CaptureTime?
    where Bytes.Index == Int {
        guard let tiff = TIFFBlock(bytes), let first = tiff.firstIFD,
              let pointer = tiff.entry(exifIFDTag, inIFD: first), pointer.type == 4 || pointer.type == 13,
              pointer.count == 1, let exif = tiff.u32(pointer.field).map(Int.init),
              let taken = tiff.entry(dateTimeOriginalTag, inIFD: exif), let text = tiff.ascii(taken) else { return nil }
        return CaptureTime(exifDate: text, offset: tiff.entry(offsetTimeOriginalTag, inIFD: exif).flatMap(tiff.ascii))
    }

    /// When the photo in a JPEG was taken, from its first APP1 Exif segment that says.
    public static func captureTime(inJPEG bytes: [UInt8]) -> CaptureTime? {
        tiffBlocks(inJPEG: bytes).lazy.compactMap { captureTime(inTIFF: $0) }.first
    }

    /// When the photo in a PNG was taken, from its eXIf chunk.
    public static func captureTime(inPNG bytes: [UInt8]) -> CaptureTime? {
        tiffBlock(inPNG: bytes).flatMap { captureTime(inTIFF: $0) }
    }

    /// A HEIF Exif item's TIFF block: after the item's four-byte offset to the TIFF header
    /// (ISO/IEC 23008-12, which some writers follow with JPEG's "Exif\0\0").
    static func tiff(inHEIFExif item: [UInt8]) -> ArraySlice<UInt8>? {
        guard item.count >= 4 else { return nil }
        let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
        guard offset >= 0, offset <= item.count - 4 else { return nil }
        let block = item[(4 + offset)...]
        return block.starts(with: exifHeader) ? block.dropFirst(exifHeader.count) : block
    }
}

extension Exif {
    /// A TIFF block whose first IFD points to an Exif IFD holding `dateTimeOriginal` (as
    /// written, `2024:05:01 14:30:00`) and, when given, `offsetTimeOriginal` (`+02:00`), in
    /// either byte order: what cameras write, for making test photos.
    public static func tiffBlock(dateTimeOriginal: String, offsetTimeOriginal: String? = nil,
                                 littleEndian: Bool = false) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        func u32(_ value: Int) -> [UInt8] {
            littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
        }
        let texts = [(dateTimeOriginalTag, dateTimeOriginal)] + (offsetTimeOriginal.map { [(offsetTimeOriginalTag, $0)] } ?? [])
        let exifIFD = 8 + 2 + 12 + 4
        var data = exifIFD + 2 + texts.count * 12 + 4
        var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        tiff += u16(1) + u16(Int(exifIFDTag)) + u16(4) + u32(1) + u32(exifIFD) + u32(0)
        tiff += u16(texts.count)
        var values: [UInt8] = []
        for (tag, text) in texts {
            let ascii = Array(text.utf8) + [0]
            // Four bytes or fewer sit in the entry itself; longer text after the IFD.
            if ascii.count <= 4 {
                tiff += u16(Int(tag)) + u16(2) + u32(ascii.count) + ascii + [UInt8](repeating: 0, count: 4 - ascii.count)
            } else {
                tiff += u16(Int(tag)) + u16(2) + u32(ascii.count) + u32(data)
                values += ascii
                data += ascii.count
            }
        }
        return tiff + u32(0) + values
    }

    /// The JPEG with an APP1 Exif segment holding `tiff` inserted right after its SOI marker.
    public static func inserting(tiff: [UInt8], intoJPEG jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG stream")
        let payload = exifHeader + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload + jpeg[2...]
    }
}
