/// Counts over the whole catalogue.
public struct CatalogueStats: Sendable, Equatable {
    public struct LabelStats: Sendable, Equatable {
        public let label: Int
        public let count: Int
        public let meanConfidence: Double
    }

    public let images: Int
    public let paths: Int
    public let classifications: Int
    public let failures: Int
    public let models: Int
    public let runs: Int
    public let corrections: Int
    /// Images by current label, labels without images left out, in label order.
    public let labels: [LabelStats]
}
