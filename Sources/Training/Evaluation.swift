/// How a classifier did on a labelled set: overall and per-class accuracy and
/// the confusion matrix (rows: true label, columns: predicted label).
public struct Evaluation: Sendable, Equatable, Codable {
    public let labels: [String]
    /// `confusion[actual][predicted]`: how many images of class `actual` got `predicted`.
    public let confusion: [[Int]]

    public init(labels: [String], actual: [Int], predicted: [Int]) {
        precondition(actual.count == predicted.count, "one prediction per image")
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: labels.count), count: labels.count)
        for (a, p) in zip(actual, predicted) { confusion[a][p] += 1 }
        self.labels = labels
        self.confusion = confusion
    }

    public var count: Int { confusion.reduce(0) { $0 + $1.reduce(0, +) } }
    public var correct: Int { labels.indices.reduce(0) { $0 + confusion[$1][$1] } }
    public var accuracy: Double { count == 0 ? 0 : Double(correct) / Double(count) }

    /// Per class: the share of its images given the right label (recall).
    public var perClassAccuracy: [Double] {
        labels.indices.map { c in
            let total = confusion[c].reduce(0, +)
            return total == 0 ? 0 : Double(confusion[c][c]) / Double(total)
        }
    }
}
