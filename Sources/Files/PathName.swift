/// File names are bytes; Swift strings are Unicode. A name that is not valid
/// UTF-8 (`\xff\xfe.png`, from an old Latin-1 camera or a copied archive)
/// would come out of `String(decoding:)` with U+FFFD in place of its bytes,
/// and that string names no file. So names read from the system (folder
/// listings, the command line) are decoded here, losslessly: valid UTF-8 as
/// itself, and each byte that is not part of valid UTF-8 as one scalar of
/// the private-use range U+10FF80...U+10FFFF (byte 0x80 + n as U+10FF80 + n).
/// Every call that hands a path to the system encodes it back to the same
/// bytes. People see such a byte as `\xFF` (`display`), and the catalogue
/// stores that display form beside the exact bytes.
///
/// A name that really holds one of those 128 private-use characters, as
/// UTF-8, would be read back as raw bytes; no file name is known to use them.
public enum PathName {
    /// The first scalar standing for a raw byte; the byte is `value - base`.
    static let base: UInt32 = 0x10FF00

    /// The name's bytes as a string that `bytes(of:)` turns back into them.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let rest = bytes[index...]
            if let (scalar, length) = decodeOne(rest) {
                scalars.append(scalar)
                index = bytes.index(index, offsetBy: length)
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(bytes[index]))!)
                index = bytes.index(after: index)
            }
        }
        return String(scalars)
    }

    /// The bytes the system knows the name by.
    public static func bytes(of name: String) -> [UInt8] {
        guard !isExact(name) else { return Array(name.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if let raw = rawByte(scalar) {
                bytes.append(raw)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// True when the string is the name exactly (valid UTF-8: no raw bytes).
    public static func isExact(_ name: String) -> Bool {
        // Private-use scalars of plane 16 take four UTF-8 bytes starting 0xF4 0x8F 0xBE/0xBF.
        !name.unicodeScalars.contains { rawByte($0) != nil }
    }

    /// The exact bytes when they are not valid UTF-8, else nil: what the
    /// catalogue keeps in `path_bytes`.
    public static func exactBytes(of name: String) -> [UInt8]? {
        isExact(name) ? nil : bytes(of: name)
    }

    /// What people see and the catalogue stores as `path`: every raw byte as `\xHH`.
    public static func display(_ name: String) -> String {
        guard !isExact(name) else { return name }
        var text = ""
        for scalar in name.unicodeScalars {
            if let raw = rawByte(scalar) {
                text += "\\x" + String(raw, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Calls `body` with the name as the NUL-terminated bytes the system takes.
    public static func withSystemName<T>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        if isExact(name) { return try name.withCString(body) }
        var cString = bytes(of: name).map { CChar(bitPattern: $0) }
        cString.append(0)
        return try cString.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= base + 0x80 && scalar.value <= base + 0xFF ? UInt8(scalar.value - base) : nil
    }

    /// One valid UTF-8 sequence at the start of `bytes`, or nil.
    private static func decodeOne<Bytes: Collection>(_ bytes: Bytes) -> (Unicode.Scalar, Int)? where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): return (scalar, String(scalar).utf8.count)
        case .emptyInput, .error: return nil
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
