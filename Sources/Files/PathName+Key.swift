extension PathName {
    /// A path as a key of sets and dictionaries, equal to another only when their bytes are.
    ///
    /// Swift compares strings by canonical equivalence: `café` written with a precomposed é
    /// (as Linux keyboards and most cameras write it) and with e and U+0301 (as macOS writes
    /// names) are one string, and two files side by side in one folder. Kept in a set of
    /// strings, the second was taken for the first and passed over without a word.
    public struct Key: Hashable, Sendable {
        public let path: String

        public init(_ path: String) { self.path = path }

        public static func == (left: Key, right: Key) -> Bool { left.path.utf8.elementsEqual(right.path.utf8) }

        public func hash(into hasher: inout Hasher) {
            var path = path
            path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
