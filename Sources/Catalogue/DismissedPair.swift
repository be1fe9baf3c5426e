/// Two images a person said are not the same photo (`duplicates --dismiss`), the lower id first.
public struct DismissedPair: Sendable, Hashable {
    public let image: ImageID
    public let other: ImageID

    /// The pair of `a` and `b` in either order.
    public init(_ a: ImageID, _ b: ImageID) {
        precondition(a != b, "a pair is of two images")
        image = min(a, b)
        other = max(a, b)
    }

    init(_ row: some CatalogueRow) {
        self.init(ImageID(row.int64("image_id")), ImageID(row.int64("other_image_id")))
    }

    static let sql = "SELECT image_id, other_image_id FROM dismissed_duplicates ORDER BY image_id, other_image_id"
}
