/// A TIFF block, EXIF's container: a byte order, then image file directories (IFDs) of
/// 12-byte entries (tag, type, count, value or offset). Every read is checked against the
/// block's end and gives nil past it, so damaged EXIF is read as absent, never trusted.
struct TIFFBlock<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    /// An IFD entry: its type (2 ASCII, 3 SHORT, 4 LONG), its count, and where its value
    /// field (the value itself when it fits in four bytes, else its offset) starts.
    struct Entry {
        var type: UInt64
        var count: UInt32
        var field: Int
    }

    let bytes: Bytes
    let littleEndian: Bool

    init?(_ bytes: Bytes) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[bytes.startIndex], bytes[bytes.startIndex + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    /// Where the first IFD starts.
    var firstIFD: Int? { u32(4).map(Int.init) }

    func u16(_ offset: Int) -> UInt64? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let a = UInt64(bytes[bytes.startIndex + offset]), b = UInt64(bytes[bytes.startIndex + offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ offset: Int) -> UInt32? {
        guard let low = u16(littleEndian ? offset : offset + 2),
              let high = u16(littleEndian ? offset + 2 : offset) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// The entry of `tag` in the IFD at `ifd`; nil when it has none or the IFD is damaged.
    func entry(_ tag: UInt64, inIFD ifd: Int) -> Entry? {
        guard let entries = u16(ifd) else { return nil }
        for index in 0..<Int(entries) {
            let entry = ifd + 2 + index * 12
            guard let found = u16(entry) else { return nil }
            guard found == tag else { continue }
            guard let type = u16(entry + 2), let count = u32(entry + 4) else { return nil }
            return Entry(type: type, count: count, field: entry + 8)
        }
        return nil
    }

    /// The text of an ASCII entry, up to its first NUL; nil when it is not ASCII or runs past the block.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count > 0, entry.count <= 64 else { return nil }
        let start = entry.count <= 4 ? entry.field : u32(entry.field).map(Int.init) ?? -1
        let count = Int(entry.count)
        guard start >= 0, start + count <= bytes.count else { return nil }
        let text = bytes[(bytes.startIndex + start)..<(bytes.startIndex + start + count)].prefix { $0 != 0 }
        guard text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
