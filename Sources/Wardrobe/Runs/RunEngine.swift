internal import Catalogue
import Foundation
import Inference

/// The one engine of every run that works through many items and writes
/// the results to the catalogue (import, reclassify, classify). It owns the
/// run's life: it registers the model and opens the run, starts the worker
/// threads (each with its own read-only connection), funnels their outcomes
/// through a bounded queue to the one writer (the calling thread), which
/// commits them in batches, stops between batches when interrupted, and
/// closes the run with its counts. A use case supplies only its per-item
/// work (`RunWork`) and what its batches write (`RunWriter`).
///
/// When anything fails (a worker cannot open the catalogue, a batch cannot
/// be written) the engine stops the workers, waits for every one to end,
/// closes the run with what was committed, and throws that error, once.
/// What was committed stays.
///
/// `Runs/` owns this engine and its parts: the per-item work and batch writer a use case
/// supplies (`RunWork`, `RunWriter`), the workers (`RunWorkers`, `WorkerThreads`) and the
/// bounded queue between them and the writer. It knows no use case.
public struct RunEngine {
    public struct Settings: Sendable {
        /// Worker threads at most (fewer when there are fewer items).
        public var jobs: Int
        /// Outcomes per transaction: a crash loses at most one batch, never half of one.
        public var batchSize: Int
        /// Items a worker takes at a time: more when each is quick, so that
        /// handing out and queueing cost nothing.
        public var itemsPerTake: Int
        /// Asked before every take: true stops the run after the items in
        /// hand (Ctrl-C). Its own closure so that tests can interrupt one run.
        public var shouldStop: @Sendable () -> Bool
        /// Which items of a take (their indices) this process may work on, asked before
        /// the take is worked on: other processes share the work (leases on files or images).
        /// Nil: all of them.
        var admit: (@Sendable ([Int]) throws -> Admission)? = nil
        /// The connection through which this process takes those leases, when it does: on a
        /// server, the workers read through it too (`RunReader`).
        var leaseHolder: LeaseHolder? = nil

        public init(jobs: Int, batchSize: Int, itemsPerTake: Int = 1,
                    shouldStop: @escaping @Sendable () -> Bool = { InterruptFlag.isRaised }) {
            self.jobs = max(1, jobs)
            self.batchSize = max(1, batchSize)
            self.itemsPerTake = max(1, itemsPerTake)
            self.shouldStop = shouldStop
        }
    }

    /// What a process may do of a take that others share (`Settings.admit`).
    struct Admission: Sendable {
        /// The items (indices) this process works on now.
        var admitted: [Int]
        /// Items another process holds and may yet leave undone: offered again once the
        /// rest is handed out, until they are admitted or no longer offered. The others
        /// are passed over.
        var later: [Int] = []
    }

    /// What the run records in the catalogue.
    public struct Recording: Sendable {
        /// The command that made the run, as `history` shows it.
        public var command: String
        public var model: ModelIdentity
        var recipe: Recipe
        /// Items the use case passed over before the run (unchanged files):
        /// seen and skipped in the run's counts.
        public var skippedBefore: Int

        init(command: String, model: ModelIdentity, recipe: Recipe, skippedBefore: Int = 0) {
            self.command = command
            self.model = model
            self.recipe = recipe
            self.skippedBefore = skippedBefore
        }
    }

    /// How a run ended, when it did not fail.
    public struct Summary: Sendable {
        /// The run's id; nil when nothing was recorded.
        var run: RunID?
        /// Outcomes the writer took.
        public var done: Int
        /// True when `shouldStop` ended the run before every item was done.
        public var interrupted: Bool
    }

    /// The writer's connection: the run and every batch are written through it.
    let catalogue: any CatalogueStore
    public let settings: Settings

    init(catalogue: any CatalogueStore, settings: Settings) {
        self.catalogue = catalogue
        self.settings = settings
    }

    /// Runs `work` over `items` and `writer` over the outcomes. With a
    /// `recording`, the run is registered and closed in the catalogue; without
    /// one (a dry run), nothing is. `progress` is called on this thread after
    /// each group of outcomes, with how many are done and the latest.
    func run<Work: RunWork, Writer: RunWriter>(
        _ items: [Work.Item], work: Work, writer: inout Writer, recording: Recording?,
        progress: (_ done: Int, _ latest: Work.Outcome) -> Void = { _, _ in }
    ) throws -> Summary where Writer.Outcome == Work.Outcome {
        try InterruptFlag.stoppable {
            try run(items, work: work, writer: &writer, recording: recording,
                    opened: try recording.map { try open($0, items: items.count) }, progress: progress)
        }
    }

    private func run<Work: RunWork, Writer: RunWriter>(
        _ items: [Work.Item], work: Work, writer: inout Writer, recording: Recording?, opened run: RunID?,
        progress: (_ done: Int, _ latest: Work.Outcome) -> Void
    ) throws -> Summary where Writer.Outcome == Work.Outcome {
        let takes = (items.count + settings.itemsPerTake - 1) / settings.itemsPerTake
        let workerCount = min(settings.jobs, max(1, takes))
        let workers = RunWorkers(items: items, work: work, cataloguePath: catalogue.location,
                                 workers: workerCount, settings: settings)
        let threads = WorkerThreads()
        var done = 0
        let seen = (recording?.skippedBefore ?? 0) + items.count
        do {
            try writer.begin(run: run) { RunEngine.counts(seen: seen, done: 0, written: $0) }
            try threads.start(count: workerCount) { workers.drain() }
            try write(from: workers, into: &writer, run: run, seen: seen, done: &done, progress: progress)
        } catch {
            // No worker may outlive the run: stop them all and wait for each.
            workers.cancel()
            threads.join()
            if let run {
                // Outcomes taken but not committed were lost with the batch.
                closeAfterFailure(run, counts: RunEngine.counts(seen: seen, done: done - writer.pending,
                                                                written: writer.written),
                                  outcome: workers.wasInterrupted ? .interrupted : .failed)
            }
            throw error
        }
        threads.join()
        if let run {
            try close(run, counts: RunEngine.counts(seen: seen, done: done, written: writer.written),
                      outcome: workers.wasInterrupted ? .interrupted : .finished)
        }
        return Summary(run: run, done: done, interrupted: workers.wasInterrupted)
    }

    /// The writer's loop: takes what the workers queued, commits full batches,
    /// and after a quiet second whatever is done, so slow items are not lost
    /// to a kill. Ends when every worker has finished and the queue is empty.
    /// Each batch carries the run's counts as it leaves them: of the `seen`
    /// items, those taken are done once it is written.
    private func write<Work: RunWork, Writer: RunWriter>(
        from workers: RunWorkers<Work>, into writer: inout Writer, run: RunID?, seen: Int, done: inout Int,
        progress: (Int, Work.Outcome) -> Void
    ) throws where Writer.Outcome == Work.Outcome {
        func commit() throws {
            try writer.commit(run: run) { RunEngine.counts(seen: seen, done: done, written: $0) }
        }
        var taken: [Work.Outcome] = []
        var lastCommit = Date()
        while workers.queue.take(into: &taken, timeout: 0.25) {
            if let failure = workers.workerFailure { throw failure }
            guard let latest = taken.last else {
                if writer.pending > 0 && Date().timeIntervalSince(lastCommit) > 1 {
                    try commit()
                    lastCommit = Date()
                }
                continue
            }
            for outcome in taken {
                try writer.take(outcome, run: run)
                done += 1
                if writer.pending >= settings.batchSize {
                    try commit()
                    lastCommit = Date()
                }
            }
            progress(done, latest)
        }
        if let failure = workers.workerFailure { throw failure }
        try commit()
    }

    /// A run's counts: every item `seen` (those passed over before the run
    /// included), those not `done` skipped, the rest as `written` says.
    private static func counts(seen: Int, done: Int, written: RunCounts) -> RunCounts {
        RunCounts(seen: seen, imported: written.imported, classified: written.classified,
                  skipped: seen - done, failed: written.failed)
    }

    // MARK: - The run's record: registered, opened and closed here only

    /// Opens the run with every item seen and none done yet.
    private func open(_ recording: Recording, items: Int) throws -> RunID {
        let model = try catalogue.registerModel(recording.model.catalogueModel())
        let seen = recording.skippedBefore + items
        return try catalogue.openRun(command: recording.command, model: model, recipe: recording.recipe,
                                     counts: RunEngine.counts(seen: seen, done: 0, written: RunCounts()))
    }

    private func close(_ run: RunID, counts: RunCounts, outcome: RunOutcome) throws {
        try catalogue.closeRun(run, counts: counts, outcome: outcome)
    }

    /// Closes a failed run with what it committed. If even this cannot be
    /// written (the disk is full, another process still holds the lock), the
    /// run stays open with the counts its last batch wrote, and the next
    /// command that opens the catalogue for writing, seeing its process gone,
    /// marks it interrupted; the caller throws the first error, which says why.
    private func closeAfterFailure(_ run: RunID, counts: RunCounts, outcome: RunOutcome) {
        do {
            try close(run, counts: counts, outcome: outcome)
        } catch {
            // Deliberately dropped: the error being thrown is the one that ended the run.
        }
    }
}

extension ModelIdentity {
    func catalogueModel() throws -> NewModel {
        NewModel(name: name, version: version, sha256: try SHA256Digest(bytes: sha256),
                 labels: labels, parameterCount: parameterCount,
                 learnedImages: try learnedImageSHA256s())
    }

    /// `learnedImages` as the catalogue keeps them. Every run registers its model, so the rows
    /// of the file's `learned_images` tensor are taken as they are when the writer's order
    /// (sorted, so no row twice) shows: sorting and parsing the hex of 200,000 took 350 ms a
    /// command. A list in the training map (older files), or rows out of order, go through hex.
    func learnedImageSHA256s() throws -> [SHA256Digest] {
        let rows = stride(from: 0, to: learnedImageDigests.count, by: 32).map { learnedImageDigests[$0..<($0 + 32)] }
        guard training[TrainingMetadata.Key.learnedImages] == nil,
              zip(rows, rows.dropFirst()).allSatisfy({ $0.lexicographicallyPrecedes($1) }) else {
            return try learnedImages.sorted().map { try SHA256Digest(hex: $0) }
        }
        return try rows.map { try SHA256Digest(bytes: Array($0)) }
    }
}
