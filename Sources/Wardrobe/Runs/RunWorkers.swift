internal import Catalogue
import Foundation
import Synchronization

/// The worker side of a run: the items handed out a few at a time to worker
/// threads, each of which reads through its own read-only connection and
/// pushes its outcomes into the bounded queue the writer drains.
final class RunWorkers<Work: RunWork>: Sendable {
    let queue: BoundedQueue<Work.Outcome>
    private let items: [Work.Item]
    private let work: Work
    private let cataloguePath: String
    private let itemsPerTake: Int
    private let workers: Int
    private let shouldStop: @Sendable () -> Bool
    private let admit: (@Sendable ([Int]) throws -> RunEngine.Admission)?
    private let leaseHolder: LeaseHolder?
    private let next = Atomic<Int>(0)
    /// Items another process held when they were offered (`RunEngine.Admission.later`).
    private let offeredLater = Mutex<[Int]>([])
    private let cancelled = Atomic<Bool>(false)
    private let interrupted = Atomic<Bool>(false)
    /// The first error a worker met on its own (it could not open the catalogue).
    private let failure = Mutex<(any Error)?>(nil)

    init(items: [Work.Item], work: Work, cataloguePath: String, workers: Int, settings: RunEngine.Settings) {
        self.items = items
        self.work = work
        self.cataloguePath = cataloguePath
        self.itemsPerTake = settings.itemsPerTake
        self.workers = workers
        self.shouldStop = settings.shouldStop
        admit = settings.admit
        leaseHolder = settings.leaseHolder
        queue = BoundedQueue(capacity: settings.batchSize + 4 * workers * settings.itemsPerTake, producers: workers)
    }

    var wasInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// The error that stopped a worker, if one did.
    var workerFailure: (any Error)? { failure.withLock { $0 } }

    /// Workers take nothing more, and those waiting for room in the queue give up.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        queue.close()
    }

    /// Runs on a worker thread until no item is left, the user interrupts, or
    /// the run is cancelled.
    func drain() {
        defer { queue.finishProducing() }
        let reader: RunReader
        do {
            if let leaseHolder, CatalogueStorage.isServer(cataloguePath) {
                reader = RunReader(sharing: leaseHolder)
            } else {
                reader = try RunReader(ownConnectionTo: cataloguePath)
            }
        } catch {
            // Without a connection the run cannot be done as asked: stop it, visibly.
            failure.withLock { $0 = $0 ?? error }
            cancel()
            return
        }
        while !cancelled.load(ordering: .relaxed) {
            if shouldStop() {
                interrupted.store(true, ordering: .relaxed)
                return
            }
            let offered: [Int], again: Bool
            if let range = nextTake() {
                (offered, again) = (Array(range), false)
            } else if let later = laterTake() {
                (offered, again) = (later, true)
            } else {
                return
            }
            let take: ArraySlice<Work.Item>
            do {
                take = try admitted(offered)
            } catch {
                failure.withLock { $0 = $0 ?? error }
                cancel()
                return
            }
            guard !take.isEmpty else {
                // Everything left is another process's for now: give it time to finish them.
                if again { Thread.sleep(forTimeInterval: Self.pauseBeforeAskingAgain) }
                continue
            }
            let outcomes = work.process(take, reader: reader, until: shouldStop)
            precondition(outcomes.count <= take.count, "at most one outcome per item")
            // A damaged page met while reading ends the run: nothing more is written.
            if let damage = CatalogueStorage.damageMet(at: cataloguePath) {
                failure.withLock { $0 = $0 ?? damage }
                cancel()
                return
            }
            queue.push(contentsOf: outcomes)
            if outcomes.count < take.count {
                // Stopped part-way through the take: the rest stays undone.
                interrupted.store(true, ordering: .relaxed)
                return
            }
        }
    }

    /// Seconds a worker waits before asking again for items that other processes held.
    static var pauseBeforeAskingAgain: Double { 0.25 }

    /// The items of `offered` this process may work on (see `RunEngine.Settings.admit`);
    /// those to offer again are kept for `laterTake`.
    private func admitted(_ offered: [Int]) throws -> ArraySlice<Work.Item> {
        guard let admit else { return ArraySlice(offered.map { items[$0] }) }
        let admission = try admit(offered)
        if !admission.later.isEmpty { offeredLater.withLock { $0.append(contentsOf: admission.later) } }
        return ArraySlice(admission.admitted.map { items[$0] })
    }

    /// Up to a take of the items to offer again, once every item has been offered once;
    /// nil when none is left.
    private func laterTake() -> [Int]? {
        offeredLater.withLock { later in
            guard !later.isEmpty else { return nil }
            let take = Array(later.prefix(itemsPerTake))
            later.removeFirst(take.count)
            return take
        }
    }

    /// The items of the next take: `itemsPerTake` while many are left, then
    /// fewer (half of each worker's share of what is left, at least one), so
    /// that the workers finish together: a long last take would leave the
    /// others idle while it ends.
    private func nextTake() -> Range<Int>? {
        var start = next.load(ordering: .relaxed)
        while start < items.count {
            let size = max(1, min(itemsPerTake, (items.count - start) / (2 * workers)))
            let (exchanged, found) = next.compareExchange(expected: start, desired: start + size, ordering: .relaxed)
            if exchanged { return start..<start + size }
            start = found
        }
        return nil
    }
}
