/// Finds a NUL in a form body as it arrives in pieces, before the library's post processor
/// reads it: a NUL byte as it is, or `%00` in an urlencoded body, which the processor decodes
/// into one. The processor hands each field's name over as a C string, so a NUL in a name
/// ended it there: `id%00x=5` was read as `id=5`. Nothing after the processor can see that,
/// so the raw bytes are looked at here and such a request is refused. This is no parser: it
/// splits nothing into fields, it only spots the three bytes `%00` (no escape can end on the
/// `%` of one: `%` is not a hex digit, so `%00` in the raw bytes always decodes to a NUL).
struct FormNulFinder {
    /// True for application/x-www-form-urlencoded, the one encoding whose `%HH` is decoded.
    private let decodesPercent: Bool
    /// The last two bytes of the pieces seen so far, for a `%00` split between two pieces.
    private var tail: [UInt8] = []
    private(set) var found = false

    init(decodesPercent: Bool) { self.decodesPercent = decodesPercent }

    mutating func scan(_ piece: UnsafeRawBufferPointer) {
        guard !found else { return }
        // The body is small (`HTTPServer.Limits.bodyBytes`), so a copy costs nothing.
        let bytes = tail + Array(piece)
        found = bytes.contains(0)
            || (decodesPercent && bytes.indices.dropLast(2).contains { bytes[$0...].starts(with: "%00".utf8) })
        tail = Array(bytes.suffix(2))
    }
}
