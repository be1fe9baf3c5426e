import Foundation

/// A named, versioned way of preparing an image for the model.
public struct Recipe: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var version: Int

    public init(name: String, version: Int) {
        self.name = name
        self.version = version
    }

    public var description: String { "\(name) v\(version)" }
}

/// What a run did, recorded when it closes.
public struct RunCounts: Sendable, Equatable {
    public var seen: Int
    public var imported: Int
    public var classified: Int
    public var skipped: Int
    public var failed: Int

    public init(seen: Int = 0, imported: Int = 0, classified: Int = 0, skipped: Int = 0, failed: Int = 0) {
        self.seen = seen
        self.imported = imported
        self.classified = classified
        self.skipped = skipped
        self.failed = failed
    }
}

/// One command's work on the catalogue: an import, a reclassification...
public struct RunRecord: Sendable, Equatable {
    public let id: RunID
    public let command: String
    public let model: ModelID
    public let recipe: Recipe
    public let startedAt: Date
    /// Nil while the run is open, or if its process died before closing it.
    public let finishedAt: Date?
    public let counts: RunCounts
    /// How it ended; nil while it runs, or until a later command sees that its process died.
    public let outcome: RunOutcome?
    /// The process that ran it (see `RunOwner`); nil for runs made before this was recorded.
    public let owner: String?

    /// What `history` and `stats` say of the run: an unclosed run whose
    /// process is gone is interrupted, whether or not a later command has
    /// marked it yet.
    public var state: RunState { RunState(outcome: outcome, owner: owner, finished: finishedAt != nil) }

    /// Interrupted without being closed: killed, cut off, out of power.
    public var wasKilled: Bool { finishedAt == nil && state == .interrupted }
}

/// How a run ended, as recorded in `runs.outcome`.
public enum RunOutcome: String, Sendable, Equatable {
    case finished, interrupted, failed
}

/// A run as people are told of it.
public enum RunState: String, Sendable, Equatable {
    case running, finished, interrupted, failed

    /// `finished`: the run has an end time (a run closed before outcomes were recorded).
    public init(outcome: RunOutcome?, owner: String?, finished: Bool) {
        switch outcome {
        case .finished: self = .finished
        case .interrupted: self = .interrupted
        case .failed: self = .failed
        case nil: self = finished ? .finished : RunOwner.isGone(owner) ? .interrupted : .running
        }
    }
}
