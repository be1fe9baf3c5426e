extension WardrobeError {
    /// The most lines of input one error names; past them it counts the rest.
    static let mostNamed = 10

    /// One error for `errors` of input read at once (lines of stdin that name no image): nil for
    /// none, the error itself for one, else each named in turn on one line, up to `mostNamed`,
    /// so that all of them are fixed at once rather than one a run.
    static func all(_ errors: [WardrobeError]) -> WardrobeError? {
        guard let first = errors.first else { return nil }
        if errors.count == 1 { return first }
        let named = errors.prefix(mostNamed).map(\.description).joined(separator: "; ")
        let more = errors.count > mostNamed ? "; and \(errors.count - mostNamed) more" : ""
        return .invalidArgument("\(errors.count) lines name no image: \(named)\(more)")
    }
}
