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
}

extension CatalogueStats {
    /// A row of either engine's query of labels (`effective_label`, `images`,
    /// `mean_confidence`). A mean of confidences in 0...1 is in 0...1: one outside was
    /// stored by another program.
    static func labelStats(_ row: some CatalogueRow) throws -> LabelStats {
        LabelStats(label: row.int("effective_label"), count: row.int("images"),
                   meanConfidence: row.isNull("mean_confidence") ? nil : try row.confidence(
                    "mean_confidence", row: "the current classifications of label \(row.text("effective_label"))"))
    }

    /// The totals, each counted by `count` (the first column of one SQL query's one row) as
    /// both engines count them, with the interrupted runs, labels and agreement found apart.
    init(counting count: (String) throws -> Int, interruptedRuns: Int, labels: [LabelStats],
         agreement: [Agreement]) throws {
        self.init(
            images: try count("SELECT count(*) FROM images"), paths: try count("SELECT count(*) FROM image_paths"),
            missingPaths: try count("SELECT count(*) FROM image_paths WHERE missing = 1"),
            classifications: try count("SELECT count(*) FROM classifications"),
            failures: try count("SELECT count(*) FROM failing_files"),
            models: try count("SELECT count(*) FROM models"), runs: try count("SELECT count(*) FROM runs"),
            interruptedRuns: interruptedRuns,
            corrections: try count("SELECT count(*) FROM corrections"),
            corrected: try count("SELECT count(*) FROM current_classifications WHERE corrected_label IS NOT NULL"),
            labels: labels, agreement: agreement)
    }
}
