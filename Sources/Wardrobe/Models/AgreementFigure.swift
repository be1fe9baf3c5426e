/// How often a model's labels match the labels a person gave, counted only
/// over the labels it did not learn from: a model fine-tuned on a person's
/// corrections gets those very images right, and counting them made a model
/// that broke more labels than it fixed look better than its parent. Every
/// command and page that shows an agreement says it the same way.
public struct AgreementFigure: Sendable, Equatable {
    /// Images with a person's label (one of the ten) the model did not learn from,
    /// and how many of them it labels the same.
    public var labelled: Int
    public var agreeing: Int
    /// Images with a person's label the model learned from: left out.
    public var learnedFrom: Int

    public init(agreeing: Int, of labelled: Int, learnedFrom: Int) {
        self.agreeing = agreeing
        self.labelled = labelled
        self.learnedFrom = learnedFrom
    }

    /// Nil when there is nothing to measure on.
    public var share: Double? { labelled > 0 ? Double(agreeing) / Double(labelled) : nil }

    /// "agrees with 13 of 16 labels it did not learn from (121 it learned from left out)";
    /// where every label was learned from, it says so instead of a figure. Nil when no
    /// label a person gave is involved.
    public var sentence: String? {
        guard labelled + learnedFrom > 0 else { return nil }
        guard labelled > 0 else {
            return "nothing to measure: it learned from all \(learnedFrom) labels you gave"
        }
        return "agrees with \(agreeing) of \(labelled) labels it did not learn from" + leftOut
    }

    /// " (121 it learned from left out)", or nothing.
    public var leftOut: String { learnedFrom > 0 ? " (\(learnedFrom) it learned from left out)" : "" }
}
