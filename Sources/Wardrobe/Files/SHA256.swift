import CCrypto

/// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions.
enum SHA256 {
    static func digest(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer {
            EVP_Digest(data.baseAddress, data.count, $0.baseAddress, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "OpenSSL SHA-256 failed")
        return digest
    }

    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { digest($0) }
    }
}
