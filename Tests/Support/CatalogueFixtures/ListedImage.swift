/// One row of `wardrobe list --json`, as the tests that label images through
/// the command line read it back: the effective label, who gave it, and the
/// model's own label beside it.
public struct ListedImage: Decodable, Sendable {
    public var id: Int64
    public var label: String
    /// "person" or "model".
    public var label_source: String
    public var model_label: String
    public var path: String?
}
