import CCrypto

/// A SHA-256 digest, computed by OpenSSL (which uses the CPU's SHA extensions).
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(of data: UnsafeRawBufferPointer) {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer {
            EVP_Digest(data.baseAddress, data.count, $0.baseAddress, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "OpenSSL SHA-256 failed")
        bytes = digest
    }

    public init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { SHA256Digest(of: $0) }
    }

    /// Lowercase hex, as the catalogue stores and shows it.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { hex }
}
