/// What a page's act did to one image's person label (0...9 or `LabelMatcher.noneLabel`; nil
/// for none): what undoing the act puts back (`before`).
public struct PersonLabelChange: Sendable, Equatable {
    public var image: Int64
    public var before: Int?
    public var after: Int?
    /// The image's SHA-256 (hex) when the act was made, nil when not known. An SQLite catalogue
    /// gives a new image the id of the one forgotten last, when that was the highest: undo
    /// passes over an id that now names another photo, as it passes over one forgotten.
    public var sha256: String?

    public init(image: Int64, before: Int?, after: Int?, sha256: String? = nil) {
        self.image = image
        self.before = before
        self.after = after
        self.sha256 = sha256
    }
}
