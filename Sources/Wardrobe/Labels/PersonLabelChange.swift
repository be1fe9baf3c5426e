/// What a page's act did to one image's person label (0...9 or `LabelMatcher.noneLabel`; nil
/// for none): what undoing the act puts back (`before`).
public struct PersonLabelChange: Sendable, Equatable {
    public var image: Int64
    public var before: Int?
    public var after: Int?

    public init(image: Int64, before: Int?, after: Int?) {
        self.image = image
        self.before = before
        self.after = after
    }
}
