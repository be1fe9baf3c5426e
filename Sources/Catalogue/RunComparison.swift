/// How the labels of the images classified by two runs differ.
public struct RunComparison: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public let image: ImageID
        public let before: Int
        public let after: Int
        public let confidenceAfter: Double
    }

    public struct Transition: Sendable, Hashable {
        public let from: Int
        public let to: Int
        public let count: Int
    }

    public let before: RunID
    public let after: RunID
    /// Images classified by both runs.
    public let compared: Int
    /// Images whose label differs, in image order (up to the limit asked for).
    public let changes: [Change]
    /// Every (before, after) label pair with its count, changed or not, most frequent first.
    public let transitions: [Transition]

    public var changedCount: Int { transitions.filter { $0.from != $0.to }.reduce(0) { $0 + $1.count } }
}
