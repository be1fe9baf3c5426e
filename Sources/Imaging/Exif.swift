/// Reading the EXIF fields this module needs (orientation, and when a photo was taken:
/// `Exif+CaptureTime.swift`) and writing orientation.
/// The TIFF structure is parsed by hand and every offset is checked; damaged EXIF
/// is ignored (the image is shown as stored), never a reason to refuse the image.
public enum Exif {
    static let orientationTag: UInt64 = 0x0112
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The orientation in a TIFF block (the payload of an APP1 "Exif" segment after its
    /// six-byte header, or of a PNG eXIf chunk); nil when absent or unreadable.
    public static func orientation<Bytes: RandomAccessCollection<UInt8>>(inTIFF bytes: Bytes) -> Orientation?
    where Bytes.Index == Int {
        guard let tiff = TIFFBlock(bytes), let ifd = tiff.firstIFD,
              let entry = tiff.entry(orientationTag, inIFD: ifd),
              // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
              entry.type == 3, entry.count == 1, let value = tiff.u16(entry.field) else { return nil }
        return Orientation(rawValue: Int(value))
    }

    /// The orientation recorded in a JPEG's APP1 Exif segment; nil when there is none.
    public static func orientation(inJPEG bytes: [UInt8]) -> Orientation? {
        tiffBlocks(inJPEG: bytes).lazy.compactMap { orientation(inTIFF: $0) }.first
    }

    /// The orientation in a PNG's eXIf chunk (before the image data); nil when there is none.
    public static func orientation(inPNG bytes: [UInt8]) -> Orientation? {
        tiffBlock(inPNG: bytes).flatMap { orientation(inTIFF: $0) }
    }

    /// The TIFF blocks of a JPEG's APP1 Exif segments, in order, up to the start of scan.
    static func tiffBlocks(inJPEG bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        JPEGSegments(bytes).compactMap { segment in
            guard segment.marker == 0xE1, segment.payload.count > exifHeader.count,
                  segment.payload.starts(with: exifHeader) else { return nil }
            return segment.payload.dropFirst(exifHeader.count)
        }
    }

    /// The TIFF block of a PNG's eXIf chunk (before the image data); nil when there is none.
    static func tiffBlock(inPNG bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8
            guard length >= 0, data + length + 4 <= bytes.count else { return nil }
            if type == "eXIf" { return bytes[data..<(data + length)] }
            if type == "IDAT" || type == "IEND" { return nil }
            offset = data + length + 4
        }
        return nil
    }

    /// An APP1 segment (marker included) holding a minimal big-endian TIFF block with one
    /// IFD entry: the orientation.
    public static func app1Segment(orientation: Orientation) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]   // "MM", 42, IFD at 8
        tiff += [0x00, 0x01]                                                  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]              // orientation, SHORT, 1
        tiff += [0x00, UInt8(orientation.rawValue), 0x00, 0x00]               // value, padded
        tiff += [0x00, 0x00, 0x00, 0x00]                                      // no next IFD
        let payload = exifHeader + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The JPEG with an orientation APP1 segment inserted right after its SOI marker.
    public static func insertingOrientation(_ orientation: Orientation, intoJPEG jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG stream")
        return [0xFF, 0xD8] + app1Segment(orientation: orientation) + jpeg[2...]
    }
}
