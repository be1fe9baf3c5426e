/// Reading and writing the one EXIF field this module needs: orientation.
/// The TIFF structure is parsed by hand and every offset is checked; damaged EXIF
/// is ignored (the image is shown as stored), never a reason to refuse the image.
public enum Exif {
    static let orientationTag: UInt64 = 0x0112
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The orientation in a TIFF block (the payload of an APP1 "Exif" segment after its
    /// six-byte header, or of a PNG eXIf chunk); nil when absent or unreadable.
    public static func orientation<Bytes: RandomAccessCollection<UInt8>>(inTIFF bytes: Bytes) -> Orientation?
    where Bytes.Index == Int {
        let base = bytes.startIndex
        let count = bytes.count
        guard count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> UInt64? {
            guard offset >= 0, offset + 2 <= count else { return nil }
            let a = UInt64(bytes[base + offset]), b = UInt64(bytes[base + offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> UInt32? {
            guard let low = u16(littleEndian ? offset : offset + 2),
                  let high = u16(littleEndian ? offset + 2 : offset) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }
        guard u16(2) == 42, let ifd = u32(4).map(Int.init), let entries = u16(ifd) else { return nil }
        for index in 0..<Int(entries) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == orientationTag else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let value = u16(entry + 8) else { return nil }
            return Orientation(rawValue: Int(value))
        }
        return nil
    }

    /// The orientation recorded in a JPEG's APP1 Exif segment; nil when there is none.
    /// Walks the marker segments up to the start of scan, checking every length.
    public static func orientation(inJPEG bytes: [UInt8]) -> Orientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }   // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }   // start of scan, end of image
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let payload = offset + 4
            let payloadEnd = offset + 2 + length
            if marker == 0xE1, payloadEnd - payload > exifHeader.count,
               bytes[payload..<payload + exifHeader.count].elementsEqual(exifHeader) {
                if let found = orientation(inTIFF: bytes[(payload + exifHeader.count)..<payloadEnd]) {
                    return found
                }
            }
            offset = payloadEnd
        }
        return nil
    }

    /// The orientation in a PNG's eXIf chunk (before the image data); nil when there is none.
    public static func orientation(inPNG bytes: [UInt8]) -> Orientation? {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8
            guard length >= 0, data + length + 4 <= bytes.count else { return nil }
            if type == "eXIf" { return orientation(inTIFF: bytes[data..<(data + length)]) }
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
