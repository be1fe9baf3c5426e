import Foundation

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

        public static func == (left: Key, right: Key) -> Bool { PathName.same(left.path, right.path) }

        public func hash(into hasher: inout Hasher) {
            var path = path
            path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Whether two paths are the same bytes; Swift's `==` also calls two canonically
    /// equivalent names equal (see `Key`).
    public static func same(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    /// `name` in the other usual Unicode forms (composed, NFC, as Linux keyboards write `é`;
    /// decomposed, NFD, as macOS writes names) where they differ from it by bytes, each once:
    /// the names a file copied between the two may carry, which Swift's `==` calls equal.
    public static func otherForms(of name: String) -> [String] {
        var forms: [String] = []
        for form in [name.precomposedStringWithCanonicalMapping, name.decomposedStringWithCanonicalMapping]
        where !same(form, name) && !forms.contains(where: { same($0, form) }) {
            forms.append(form)
        }
        return forms
    }

    /// Whether `path` lies below `folder`, by bytes: `cafe\u{301}/x` is not below `café`.
    public static func isBelow(_ path: String, folder: String) -> Bool {
        path.utf8.starts(with: (folder.hasSuffix("/") ? folder : folder + "/").utf8)
    }
}
