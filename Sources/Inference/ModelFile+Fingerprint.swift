extension ModelFile {
    /// A 64-bit FNV-1a hash (16 hex digits) of the description, every
    /// tensor's name, shape and bits and the learned images: equal for equal models whatever the file
    /// layout. (Callers wanting the file's identity hash the file's bytes.)
    /// Worked out when asked, not when a model is compiled: byte by byte over
    /// every weight it costs about 2 ms, which no command needs.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        func mix(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { mix($0) }
        }
        let metadata = description.metadata()
        for key in metadata.keys.sorted() {
            mix(key.utf8); mix(0)
            mix(metadata[key]!.utf8); mix(0)
        }
        for name in tensors.keys.sorted() {
            let tensor = tensors[name]!
            mix(name.utf8); mix(0)
            for dimension in tensor.shape { mix(UInt64(dimension)) }
            tensor.scalars.withUnsafeBytes { mix($0) }
        }
        // What the model learned from was part of the description before it had its own tensor.
        if !learnedImageDigests.isEmpty {
            mix(Self.learnedImagesTensor.utf8); mix(0)
            mix(learnedImageDigests)
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
