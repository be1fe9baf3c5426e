import Foundation

/// A registered model as `wardrobe model list` shows it: when the catalogue
/// last adopted it, and how often its latest label of each image a person
/// labelled agrees with the person, over the labels it did not learn from.
public struct ModelStanding: Sendable, Equatable {
    public let model: ModelRecord
    /// The latest adoption of this model, nil if never adopted.
    public let lastAdopted: Date?
    /// Images with a person's label (one of the ten; `none` is no answer a
    /// model can give) that this model classified and did not learn from.
    public let labelledImages: Int
    /// How many of those the model's latest classification gets right.
    public let agreeing: Int
    /// Images with a person's label that this model classified and learned
    /// that label from: left out, as agreeing with them says nothing.
    public let learnedFrom: Int

    public var agreement: Double? { labelledImages == 0 ? nil : Double(agreeing) / Double(labelledImages) }
}

extension ModelStanding {
    /// When each model was last adopted: both engines' query, read by `adoption`.
    static let adoptionsSQL = """
        SELECT model_id, max(adopted_at) AS adopted_at FROM model_adoptions WHERE model_id IS NOT NULL GROUP BY model_id
        """

    static func adoption(_ row: some CatalogueRow) throws -> (ModelID, Date) {
        (ModelID(row.int64("model_id")), try row.date("adopted_at", row: "the adoptions of model \(row.int64("model_id"))"))
    }

    /// Per labelled image and model, that model's latest classification of it (`latest`: the
    /// person's label, the classification's id, and whether the model learned the image's
    /// label): the common table expressions both engines count agreement from.
    static let latestOfLabelledSQL = """
        WITH labelled AS (
            SELECT k.image_id, k.label FROM corrections AS k
            WHERE k.id = (SELECT max(id) FROM corrections WHERE image_id = k.image_id)
              AND k.label IS NOT NULL AND k.label != \(Catalogue.noneLabel)),
        latest AS (
            SELECT c.model_id, l.image_id, l.label AS person, max(c.id) AS classification,
                   EXISTS (SELECT 1 FROM model_learned_images AS m JOIN images AS i ON i.sha256 = m.sha256
                           WHERE m.model_id = c.model_id AND i.id = l.image_id) AS learned
            FROM labelled AS l JOIN classifications AS c ON c.image_id = l.image_id
            GROUP BY l.image_id, l.label, c.model_id)
        """
}

extension Catalogue {
    /// Every registered model, oldest first, with its adoption and its
    /// agreement with the person's current labels it did not learn from.
    public func modelStandings() throws -> [ModelStanding] {
        struct Counts { var adopted: Date?; var labelled = 0; var agreeing = 0; var learned = 0 }
        var counts: [ModelID: Counts] = [:]
        try database.rows(ModelStanding.adoptionsSQL) { try ModelStanding.adoption($0) }
            .forEach { counts[$0.0, default: Counts()].adopted = $0.1 }
        try database.rows("""
            \(ModelStanding.latestOfLabelledSQL)
            SELECT t.model_id, sum(NOT t.learned) AS labelled, sum(NOT t.learned AND c.label = t.person) AS agreeing,
                   sum(t.learned) AS learned
            FROM latest AS t JOIN classifications AS c ON c.id = t.classification
            GROUP BY t.model_id
            """) { row in (ModelID(row.int64("model_id")), row.int("labelled"), row.int("agreeing"), row.int("learned")) }
            .forEach { model, labelled, agreeing, learned in
                counts[model, default: Counts()].labelled = labelled
                counts[model, default: Counts()].agreeing = agreeing
                counts[model, default: Counts()].learned = learned
            }
        return try models().map { model in
            let c = counts[model.id] ?? Counts()
            return ModelStanding(model: model, lastAdopted: c.adopted, labelledImages: c.labelled, agreeing: c.agreeing,
                                 learnedFrom: c.learned)
        }
    }

    /// The images among `hashes` that this catalogue holds (one indexed look
    /// per hash): those a model learned from, to leave out of its figures.
    public func imageIDs(withSHA256 hashes: [SHA256Digest]) throws -> Set<ImageID> {
        var found: Set<ImageID> = []
        for hash in hashes {
            if let id = try database.scalarInt("SELECT id FROM images WHERE sha256 = :sha256",
                                               [":sha256": hash.bytes]) { found.insert(ImageID(id)) }
        }
        return found
    }
}
