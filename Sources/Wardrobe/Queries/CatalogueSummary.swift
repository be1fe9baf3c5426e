internal import Catalogue

/// `wardrobe stats`: totals; per effective label (a person's, else the
/// model's) how many images carry it, their share and the model's mean
/// confidence; where a person gave labels, how often the model's current
/// label agrees with them; and per garment colour (a person's, else the
/// measured one) how many images have it.
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

    /// The images of one garment colour.
    public struct Colour: Sendable, Encodable {
        public var colour: String
        public var count: Int
        /// Of all images, 0...1.
        public var share: Double
        /// Of them, those whose colour a person gave.
        public var byPerson: Int

        enum CodingKeys: String, CodingKey { case colour, count, share, byPerson = "by_person" }
    }

    /// Of the images a person gave this label that the model of their current
    /// classification did not learn from, how many it labels so too; those it
    /// learned from are counted apart and left out.
    public struct Agreement: Sendable, Encodable {
        public var label: String
        public var labelled: Int
        public var agreed: Int
        public var learnedFrom: Int
        /// Nil when every image of this label was learned from.
        public var share: Double? { labelled > 0 ? Double(agreed) / Double(labelled) : nil }

        enum CodingKeys: String, CodingKey { case label, labelled, agreed, share, learnedFrom = "learned_from" }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(labelled, forKey: .labelled)
            try container.encode(agreed, forKey: .agreed)
            try container.encode(share, forKey: .share)
            try container.encode(learnedFrom, forKey: .learnedFrom)
        }
    }

    public var catalogue: String
    public var images: Int
    public var paths: Int
    /// Paths gone at the last look.
    public var missingPaths: Int
    public var classifications: Int
    /// Distinct files whose latest import failed.
    public var failures: Int
    public var models: Int
    public var runs: Int
    /// Runs stopped by Ctrl-C, or whose process died before closing them.
    public var interruptedRuns: Int
    /// Every act of a person: labels, confirmations, clears.
    public var corrections: Int
    /// Images whose label a person set now.
    public var corrected: Int
    /// Images that have a current classification.
    public var classified: Int
    /// Every label in contract order, those without images included; `none`
    /// last, when a person gave it.
    public var labels: [Label]
    /// Per label a person gave (`none` left out), in label order; empty when none.
    public var agreement: [Agreement]
    /// The colours images have, in the palette's order, then any name outside it (stored by
    /// another program) in name order; colours no image has are left out.
    public var colours: [Colour]
    /// Images never measured (no thumbnail, or imported before colours were kept) and given no colour.
    public var unmeasuredColours: Int

    enum CodingKeys: String, CodingKey {
        case catalogue, images, paths, missingPaths = "missing_paths", classifications, failures, models, runs
        case interruptedRuns = "interrupted_runs"
        case corrections, corrected, classified, labels, agreement, colours, unmeasuredColours = "unmeasured_colours"
    }

    /// `cache`: for a connection asked again and again (a server's), the
    /// counts kept from its last call while nothing was committed since.
    init(catalogue: any CatalogueStore, cache: StatsCache? = nil) throws {
        let stats = try catalogue.stats(cache: cache)
        self.catalogue = catalogue.path
        images = stats.images
        paths = stats.paths
        missingPaths = stats.missingPaths
        classifications = stats.classifications
        failures = stats.failures
        models = stats.models
        runs = stats.runs
        interruptedRuns = stats.interruptedRuns
        corrections = stats.corrections
        corrected = stats.corrected
        classified = stats.labels.reduce(0) { $0 + $1.count }
        let total = classified
        let none = stats.labels.contains { $0.label == Catalogue.noneLabel && $0.count > 0 }
        let indices = Array(ClothingClassifier.labels.indices) + (none ? [Catalogue.noneLabel] : [])
        labels = indices.map { index in
            let found = stats.labels.first { $0.label == index }
            return Label(label: LabelMatcher.name(of: index), count: found?.count ?? 0,
                         share: total > 0 ? Double(found?.count ?? 0) / Double(total) : 0,
                         meanConfidence: found?.meanConfidence)
        }
        agreement = stats.agreement.map {
            Agreement(label: LabelMatcher.name(of: $0.label), labelled: $0.labelled, agreed: $0.agreed,
                      learnedFrom: $0.learnedFrom)
        }
        let byColour = stats.colours
        let counted = max(byColour.reduce(0) { $0 + $1.images }, 1)
        // A name outside the palette (another program's) is counted after the palette's, as show,
        // list and serve show it: left out, its images were in no row and the shares fell short.
        let others = byColour.compactMap(\.colour).filter { !ColourSetter.names.contains($0) }.sorted()
        colours = (ColourSetter.names + others).compactMap { name in
            byColour.first { $0.colour == name && ($0.images > 0 || ColourSetter.names.contains(name)) }.map {
                Colour(colour: name, count: $0.images, share: Double($0.images) / Double(counted), byPerson: $0.byPerson)
            }
        }
        unmeasuredColours = byColour.first { $0.colour == nil }?.images ?? 0
    }

    /// Over every label a person gave: how many the model did not learn from, how many of
    /// those it agrees with, and how many it learned from.
    public var overallAgreement: AgreementFigure {
        agreement.reduce(AgreementFigure(agreeing: 0, of: 0, learnedFrom: 0)) {
            AgreementFigure(agreeing: $0.agreeing + $1.agreed, of: $0.labelled + $1.labelled,
                            learnedFrom: $0.learnedFrom + $1.learnedFrom)
        }
    }
}
