import Foundation

/// A first-in first-out queue of limited size between worker threads and the
/// one writer: producers block when it is full, so memory stays flat however
/// many items a run walks. The writer takes everything waiting at once, so
/// one lock serves many items.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var producersLeft: Int
    private var closed = false

    init(capacity: Int, producers: Int) {
        self.capacity = max(1, capacity)
        self.producersLeft = producers
        items.reserveCapacity(self.capacity)
    }

    /// Adds the elements, waiting while the queue is full. Returns false,
    /// dropping them, once the queue is closed: the writer will take no more.
    @discardableResult
    func push<Elements: Collection>(contentsOf elements: Elements) -> Bool where Elements.Element == Element {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(contentsOf: elements)
        condition.broadcast()
        return true
    }

    /// A producer says it is done; when all are and the queue is empty, `take` says so.
    func finishProducing() {
        condition.lock()
        producersLeft -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The writer will take nothing more: producers waiting for room return at once.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Moves every waiting element into `taken` (emptied first), waiting at
    /// most `timeout` seconds for one. False when the queue is empty and every
    /// producer has finished; true otherwise, with `taken` empty on a timeout.
    func take(into taken: inout [Element], timeout: TimeInterval) -> Bool {
        taken.removeAll(keepingCapacity: true)
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while items.isEmpty {
            if producersLeft == 0 { return false }
            if !condition.wait(until: deadline) { return true }
        }
        // The two arrays trade storage: no copy, and no allocation once both have grown.
        swap(&items, &taken)
        condition.broadcast()
        return true
    }
}
