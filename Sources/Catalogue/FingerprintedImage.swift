/// An image as `duplicates` compares it: its fingerprints and its garment's colour.
public struct FingerprintedImage: Sendable, Equatable {
    public let id: ImageID
    public let fingerprint: StoredFingerprint
    /// A person's colour, else the measured one; nil when it has neither.
    public let colour: String?
    /// Whether `colour` is a person's.
    public let colourByPerson: Bool
    /// The CIELAB mean (L*, a*, b*) of the garment's largest measured colour; nil when never measured.
    public let lab: [Double]?

    public init(id: ImageID, fingerprint: StoredFingerprint, colour: String?, colourByPerson: Bool = false, lab: [Double]? = nil) {
        self.id = id
        self.fingerprint = fingerprint
        self.colour = colour
        self.colourByPerson = colourByPerson
        self.lab = lab
    }

    /// A row of `sql`, as both engines read it.
    init(_ row: some CatalogueRow) throws {
        let image = ImageID(row.int64("id"))
        id = image
        fingerprint = StoredFingerprint(row)
        colour = row.optionalText("colour")
        colourByPerson = !row.isNull("person_colour")
        lab = try row.colourShares(row.column("colours"), row: "image \(image.rawValue)")?.first.map { [$0.lightness, $0.a, $0.b] }
    }

    /// Every fingerprinted image, by id, from the index `images_by_fingerprint` alone.
    static let sql = """
        SELECT id, fingerprint, garment_fingerprint, crop_fingerprints, garment_crop_fingerprints, coalesce(person_colour, colour) AS colour, person_colour, colours
        FROM images WHERE fingerprint IS NOT NULL ORDER BY id
        """
}
