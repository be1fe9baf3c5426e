/// What `similar` weighs of an image beside its fingerprints: its garment's measured colours
/// (CIELAB), the logits of its current classification and its effective label (a person's,
/// else the model's). Each is nil where the image has none.
public struct LookalikeFacts: Sendable, Equatable {
    public let id: ImageID
    public let colours: [StoredColours.Share]?
    /// A person's colour, else the measured one.
    public let colour: String?
    public let logits: [Float]?
    public let label: Int?

    public init(id: ImageID, colours: [StoredColours.Share]?, colour: String?, logits: [Float]?, label: Int?) {
        self.id = id
        self.colours = colours
        self.colour = colour
        self.logits = logits
        self.label = label
    }

    /// A row of `sql(count:)`, as both engines read it.
    init(_ row: some CatalogueRow) throws {
        id = ImageID(row.int64("id"))
        let name = "image \(id)"
        colours = try row.colourShares(row.column("colours"), row: name)
        colour = row.optionalText("colour")
        logits = row.isNull("logits") ? nil : try row.logits("logits", count: Catalogue.labelCount, row: name)
        label = try row.optionalLabel("label", upTo: Catalogue.noneLabel, row: name)
    }

    /// The facts of the images whose ids fill `placeholders` (one named parameter or "$n" each).
    static func sql(placeholders: String) -> String {
        """
        SELECT i.id, i.colours, coalesce(i.person_colour, i.colour) AS colour, c.logits, cc.effective_label AS label
        FROM images AS i
        LEFT JOIN current_classifications AS cc ON cc.image_id = i.id
        LEFT JOIN classifications AS c ON c.id = cc.classification_id
        WHERE i.id IN (\(placeholders))
        """
    }
}
