/// An image as `duplicates` compares it: its fingerprints and its garment's colour.
public struct FingerprintedImage: Sendable, Equatable {
    public let id: ImageID
    public let fingerprint: StoredFingerprint
    /// A person's colour, else the measured one; nil when it has neither.
    public let colour: String?

    public init(id: ImageID, fingerprint: StoredFingerprint, colour: String?) {
        self.id = id
        self.fingerprint = fingerprint
        self.colour = colour
    }

    /// A row of `sql`, as both engines read it.
    init(_ row: some CatalogueRow) {
        id = ImageID(row.int64("id"))
        fingerprint = StoredFingerprint(wholeColumn: row.int64("fingerprint"),
                                        garmentColumn: row.optionalInt64("garment_fingerprint"))
        colour = row.optionalText("colour")
    }

    /// Every fingerprinted image, by id.
    static let sql = """
        SELECT id, fingerprint, garment_fingerprint, coalesce(person_colour, colour) AS colour
        FROM images WHERE fingerprint IS NOT NULL ORDER BY id
        """
}
