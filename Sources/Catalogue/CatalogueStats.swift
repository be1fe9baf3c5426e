/// Counts over the whole catalogue.
public struct CatalogueStats: Sendable, Equatable {
    public struct LabelStats: Sendable, Equatable {
        /// 0...9, or `Catalogue.noneLabel`.
        public let label: Int
        public let count: Int
        /// The model's mean confidence in this label over the images whose label is the
        /// model's (a person's other label beside it is the model's confidence in another
        /// label): nil when a person gave every one of them another label.
        public let meanConfidence: Double?
    }

    /// How often the model's current label is the one a person gave, per
    /// person label (`none` left out), over the images the model that made
    /// the current label did not learn that label from.
    public struct Agreement: Sendable, Equatable {
        public let label: Int
        public let labelled: Int
        public let agreed: Int
        /// Images with this person label that the current label's model learned from: left out.
        public let learnedFrom: Int

        public init(label: Int, labelled: Int, agreed: Int, learnedFrom: Int = 0) {
            self.label = label
            self.labelled = labelled
            self.agreed = agreed
            self.learnedFrom = learnedFrom
        }
    }

    public let images: Int
    public let paths: Int
    /// Paths that were gone at the last look.
    public let missingPaths: Int
    public let classifications: Int
    /// Distinct paths whose latest import attempt failed.
    public let failures: Int
    public let models: Int
    public let runs: Int
    /// Runs stopped by Ctrl-C, or whose process died before closing them.
    public internal(set) var interruptedRuns: Int
    /// Every act of a person (labels, confirmations, clears).
    public let corrections: Int
    /// Images whose label a person set now (`none` included).
    public let corrected: Int
    /// Images by effective label, labels without images left out, in label order (`none` last).
    public let labels: [LabelStats]
    public let agreement: [Agreement]
    /// Images by garment colour (a person's, else the measured one), by palette name, those
    /// with none last; from the same snapshot as the rest.
    public let colours: [ColourCount]
}

extension CatalogueStats {
    /// How many images have one garment colour: a person's, else the measured one.
    public struct ColourCount: Sendable, Equatable {
        /// The palette name; nil for the images never measured and given no colour.
        public let colour: String?
        public let images: Int
        /// Of them, those whose colour a person gave.
        public let byPerson: Int

        init(colour: String?, images: Int, byPerson: Int) {
            self.colour = colour
            self.images = images
            self.byPerson = byPerson
        }
    }
}

extension CatalogueStats {
    /// The totals and labels as the triggers keep them, beside what is counted apart: the few
    /// models and runs, the interrupted runs, and the agreement, which reads only the images a
    /// person labelled.
    init(kept: KeptCounts, models: Int, runs: Int, interruptedRuns: Int, agreement: [Agreement]) {
        self.init(images: kept.total("images"), paths: kept.total("paths"), missingPaths: kept.total("missing paths"),
                  classifications: kept.total("classifications"), failures: kept.total("failing files"),
                  models: models, runs: runs, interruptedRuns: interruptedRuns, corrections: kept.total("corrections"),
                  corrected: kept.labels.values.reduce(0) { $0 + $1.corrected }, labels: kept.labelStats,
                  agreement: agreement, colours: kept.colourCounts)
    }
}
