import Catalogue

/// `wardrobe stats`: totals and, per label, how many images carry it now,
/// their share of the classified images and their mean confidence.
public struct CatalogueSummary: Sendable, Encodable {
    public struct Label: Sendable, Encodable {
        public var label: String
        public var count: Int
        /// Of all images with a classification, 0...1.
        public var share: Double
        /// Nil when no image has this label.
        public var meanConfidence: Double?

        enum CodingKeys: String, CodingKey { case label, count, share, meanConfidence = "mean_confidence" }
    }

    public var catalogue: String
    public var images: Int
    public var paths: Int
    public var classifications: Int
    public var failures: Int
    public var models: Int
    public var runs: Int
    public var corrections: Int
    /// Images that have a current classification.
    public var classified: Int
    /// Every label in contract order, those without images included.
    public var labels: [Label]

    public init(catalogue: Catalogue) throws {
        let stats = try catalogue.stats()
        self.catalogue = catalogue.path
        images = stats.images
        paths = stats.paths
        classifications = stats.classifications
        failures = stats.failures
        models = stats.models
        runs = stats.runs
        corrections = stats.corrections
        classified = stats.labels.reduce(0) { $0 + $1.count }
        let total = classified
        labels = ClothingClassifier.labels.enumerated().map { index, name in
            let found = stats.labels.first { $0.label == index }
            return Label(label: name, count: found?.count ?? 0,
                         share: total > 0 ? Double(found?.count ?? 0) / Double(total) : 0,
                         meanConfidence: found?.meanConfidence)
        }
    }
}
