/// A SHA-256 digest as 32 bytes. The catalogue stores hashes; it never
/// computes them (the caller hashes the file or model it imports).
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else {
            throw CatalogueError.invalidArgument("a SHA-256 digest is 32 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// From 64 hexadecimal digits, either case.
    public init(hex: String) throws {
        guard hex.utf8.count == 64, let bytes = SHA256Digest.bytes(fromHex: hex) else {
            throw CatalogueError.invalidArgument("not a SHA-256 digest (64 hex digits): \(hex)")
        }
        self.bytes = bytes
    }

    /// Lowercase hexadecimal, 64 digits.
    public var hex: String { SHA256Digest.hex(bytes) }
    public var description: String { hex }

    /// Any bytes as lowercase hexadecimal, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from an even number of hex digits; nil on any other character.
    static func bytes(fromHex hex: String) -> [UInt8]? {
        let nibbles = hex.utf8.map(nibble)
        guard nibbles.count % 2 == 0, !nibbles.contains(nil) else { return nil }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0]! << 4 | nibbles[$0 + 1]! }
    }

    static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The lowest and highest hashes that start with these hex digits (either case): the
    /// prefix padded with 0s and with fs, a range on a hash's unique index.
    static func range(ofPrefix prefix: String) throws -> (low: [UInt8], high: [UInt8]) {
        let digits = prefix.lowercased()
        guard !digits.isEmpty, digits.utf8.count <= 64,
              let low = bytes(fromHex: digits.padding(toLength: 64, withPad: "0", startingAt: 0)),
              let high = bytes(fromHex: digits.padding(toLength: 64, withPad: "f", startingAt: 0)) else {
            throw CatalogueError.invalidArgument("not a hash prefix (1 to 64 hex digits): \(prefix)")
        }
        return (low, high)
    }
}
