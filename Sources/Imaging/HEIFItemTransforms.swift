/// The rotation and mirroring (`irot`, `imir`) a HEIF file associates with each of its
/// items, read from the `meta` box's property container (`iprp`: `ipco` holds the properties,
/// `ipma` says which item has which, in the order they apply).
///
/// libheif 1.15 applies these while decoding but cannot tell which ones an item has. An
/// embedded thumbnail is a separate item with its own properties: a writer that turns the
/// primary image (a 180-degree `irot`, say) without turning the thumbnail leaves a thumbnail
/// of the same shape that decodes upside down. `HEIFFile.thumbnail` uses one only when its
/// transformations are the primary's. Every size is checked against the file; anything that
/// does not parse gives nil, and the caller then decodes the primary image.
struct HEIFItemTransforms {
    /// One transformative property: its box type and the byte that says how it turns.
    struct Transform: Equatable {
        var type: String
        var value: UInt8
    }

    private var properties: [(type: String, payload: ArraySlice<UInt8>)] = []
    private var associations: [UInt32: [Int]] = [:]

    init?(_ bytes: [UInt8]) {
        guard let meta = Self.children(of: bytes[...]).first(where: { $0.type == "meta" }),
              meta.payload.count >= 4,
              let iprp = Self.children(of: meta.payload.dropFirst(4)).first(where: { $0.type == "iprp" })
        else { return nil }
        let boxes = Self.children(of: iprp.payload)
        guard let ipco = boxes.first(where: { $0.type == "ipco" }) else { return nil }
        properties = Self.children(of: ipco.payload)
        for ipma in boxes where ipma.type == "ipma" {
            guard readAssociations(ipma.payload) else { return nil }
        }
    }

    /// The item's `irot` and `imir` in the order they apply (empty when it has none); nil
    /// when the item has no entry or names a property that does not exist.
    func transforms(of item: UInt32) -> [Transform]? {
        guard let indices = associations[item] else { return nil }
        var transforms: [Transform] = []
        for index in indices {
            guard index >= 1, index <= properties.count else { return nil }
            let property = properties[index - 1]
            switch property.type {
            case "irot":
                guard let byte = property.payload.first else { return nil }
                transforms.append(Transform(type: "irot", value: byte & 0b11))
            case "imir":
                guard let byte = property.payload.first else { return nil }
                transforms.append(Transform(type: "imir", value: byte & 0b1))
            default:
                continue
            }
        }
        return transforms
    }

    /// The largest side any image property (`ispe`: version and flags, then width and height
    /// in 32 bits each) of the file declares: the coded size of its images, before a crop
    /// (`clap`) or a grid makes the size shown. 0 when none does.
    var largestDeclaredSide: Int {
        properties.filter { $0.type == "ispe" }.reduce(0) { largest, property in
            var reader = BigEndianReader(property.payload)
            guard reader.take(4) != nil, let width = reader.uint(bytes: 4), let height = reader.uint(bytes: 4) else { return largest }
            return max(largest, Int(width), Int(height))
        }
    }

    /// `ipma`: version and flags, an entry count, then per item its ID (16 bits, or 32 from
    /// version 1) and its property indices (7 bits, or 15 with flag 1; the top bit marks an
    /// essential property).
    private mutating func readAssociations(_ payload: ArraySlice<UInt8>) -> Bool {
        var reader = BigEndianReader(payload)
        guard let version = reader.u8(), let flags = reader.uint(bytes: 3), let count = reader.uint(bytes: 4) else { return false }
        for _ in 0..<count {
            guard let item = reader.uint(bytes: version < 1 ? 2 : 4), let associated = reader.u8() else { return false }
            var indices: [Int] = []
            for _ in 0..<associated {
                if flags & 1 == 1 {
                    guard let value = reader.uint(bytes: 2) else { return false }
                    indices.append(Int(value & 0x7FFF))
                } else {
                    guard let value = reader.u8() else { return false }
                    indices.append(Int(value & 0x7F))
                }
            }
            associations[item, default: []] += indices
        }
        return true
    }

    /// The boxes directly inside `bytes`: type and payload. Stops at the first box whose size
    /// does not fit (the boxes before it are still returned).
    static func children(of bytes: ArraySlice<UInt8>) -> [(type: String, payload: ArraySlice<UInt8>)] {
        var boxes: [(type: String, payload: ArraySlice<UInt8>)] = []
        var reader = BigEndianReader(bytes)
        while let start = reader.position, let size32 = reader.uint(bytes: 4), let type = reader.take(4) {
            var size = Int(size32)
            var header = 8
            if size == 1 {
                guard let large = reader.uint64() else { break }
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = bytes.endIndex - start
            }
            guard size >= header, size <= bytes.endIndex - start else { break }
            boxes.append((String(decoding: type, as: UTF8.self), bytes[(start + header)..<(start + size)]))
            reader.seek(to: start + size)
        }
        return boxes
    }
}

/// Reads big-endian integers from a slice, nil past its end.
private struct BigEndianReader {
    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    /// Where the next read starts; nil at the end.
    var position: Int? { offset < bytes.endIndex ? offset : nil }

    mutating func seek(to position: Int) { offset = position }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func u8() -> UInt8? { take(1)?.first }

    mutating func uint(bytes count: Int) -> UInt32? {
        take(count).map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    mutating func uint64() -> UInt64? {
        take(8).map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }
}
