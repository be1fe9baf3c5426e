import Catalogue
import Synchronization
import Testing
@testable import Wardrobe

/// How the run engine hands items to its workers: several at a time while
/// many are left, then fewer, down to one, so that the workers end together;
/// every item is worked on once, and each take's outcomes reach the writer
/// in the take's order, one per item.
@Suite struct RunTakeTests {
    /// Gives each item back as its outcome and records every take.
    struct EchoWork: RunWork {
        final class Takes: Sendable {
            let taken = Mutex<[[Int]]>([])
        }
        let takes = Takes()

        func process(_ item: Int, reader: RunReader) -> Int { item }

        func process(_ items: ArraySlice<Int>, reader: RunReader, until stop: () -> Bool) -> [Int] {
            takes.taken.withLock { $0.append(Array(items)) }
            return items.map { process($0, reader: reader) }
        }
    }

    /// Gives each item back, through the default take (which asks `stop` before each item).
    struct PlainWork: RunWork {
        func process(_ item: Int, reader: RunReader) -> Int { item }
    }

    /// Keeps the outcomes in the order the engine handed them over.
    struct Collector: RunWriter {
        var outcomes: [Int] = []
        var pending: Int { 0 }
        var written: RunCounts { RunCounts() }
        mutating func take(_ outcome: Int, run: RunID?) throws { outcomes.append(outcome) }
        mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws {}
    }

    @Test(arguments: [1, 2, 3])
    func everyItemOnceInTakesThatShrinkTowardTheEnd(jobs: Int) throws {
        let folder = try EngineFolder(fashionImages: 0)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let items = Array(0..<203)
        let work = EchoWork()
        var writer = Collector()
        let settings = RunEngine.Settings(jobs: jobs, batchSize: 16, itemsPerTake: 8)
        let summary = try RunEngine(catalogue: catalogue, settings: settings)
            .run(items, work: work, writer: &writer, recording: nil)

        #expect(summary.done == items.count)
        #expect(writer.outcomes.sorted() == items, "every item once")
        let taken = work.takes.taken.withLock { $0 }
        let sizes = taken.map(\.count)
        #expect(sizes.reduce(0, +) == items.count)
        #expect(sizes.allSatisfy { (1...8).contains($0) })
        #expect(sizes.first == 8, "full takes while many items are left")
        #expect(sizes.filter { $0 == 1 }.count >= jobs, "single items at the end: \(sizes.suffix(6))")
        // Each take's outcomes reach the writer together and in the take's order.
        for take in taken {
            let at = try #require(writer.outcomes.firstIndex(of: take[0]))
            #expect(Array(writer.outcomes[at..<min(writer.outcomes.count, at + take.count)]) == take)
        }
    }

    /// Ctrl-C during a take waits for the item in hand, not for the whole take.
    @Test func aStopPartWayThroughATakeLeavesTheRestUndone() throws {
        let folder = try EngineFolder(fashionImages: 0)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let asked = Atomic<Int>(0)
        // Asked before the take, then before each item: true from the third item on.
        let settings = RunEngine.Settings(jobs: 1, batchSize: 64, itemsPerTake: 8) {
            asked.add(1, ordering: .relaxed).newValue > 3
        }
        var writer = Collector()
        let summary = try RunEngine(catalogue: catalogue, settings: settings)
            .run(Array(0..<100), work: PlainWork(), writer: &writer, recording: nil)

        #expect(summary.interrupted)
        #expect(writer.outcomes == [0, 1], "the two items begun before the stop, and nothing after")
        #expect(summary.done == 2)
    }
}
