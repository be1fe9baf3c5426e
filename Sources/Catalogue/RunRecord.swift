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

extension RunRecord {
    /// A run's columns as every query of whole runs SELECTs them, and their reader.
    struct Columns: RecordColumns {
        static let list = """
            id, command, model_id, recipe_name, recipe_version, started_at, finished_at,
            seen, imported, classified, skipped, failed, outcome, owner
            """

        private let id, command, model, recipeName, recipeVersion, startedAt, finishedAt: Int32
        private let seen, imported, classified, skipped, failed, outcome, owner: Int32

        init(_ statement: some CatalogueRow) {
            id = statement.column("id")
            command = statement.column("command")
            model = statement.column("model_id")
            recipeName = statement.column("recipe_name")
            recipeVersion = statement.column("recipe_version")
            startedAt = statement.column("started_at")
            finishedAt = statement.column("finished_at")
            seen = statement.column("seen")
            imported = statement.column("imported")
            classified = statement.column("classified")
            skipped = statement.column("skipped")
            failed = statement.column("failed")
            outcome = statement.column("outcome")
            owner = statement.column("owner")
        }

        func record(_ row: some CatalogueRow) throws -> RunRecord {
            let name = { "run \(row.int64(id))" }
            return RunRecord(id: RunID(row.int64(id)), command: row.text(command), model: ModelID(row.int64(model)),
                             recipe: Recipe(name: row.text(recipeName), version: row.int(recipeVersion)),
                             startedAt: try row.date(startedAt, row: name()),
                             finishedAt: row.isNull(finishedAt) ? nil : try row.date(finishedAt, row: name()),
                             counts: RunCounts(seen: row.int(seen), imported: row.int(imported), classified: row.int(classified),
                                               skipped: row.int(skipped), failed: row.int(failed)),
                             outcome: row.isNull(outcome) ? nil : RunOutcome(rawValue: row.text(outcome)),
                             owner: row.optionalText(owner))
        }
    }
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
