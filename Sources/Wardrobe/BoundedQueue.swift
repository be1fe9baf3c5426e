import Foundation

/// A first-in first-out queue of limited size between worker threads and the
/// one writer: producers block when it is full, so memory stays flat however
/// many files an import walks.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var producersLeft: Int

    init(capacity: Int, producers: Int) {
        self.capacity = capacity
        self.producersLeft = producers
    }

    /// Starts one thread per producer this queue was made for, each running
    /// `produce` and then saying it is done.
    func startProducers(_ produce: @escaping @Sendable (BoundedQueue) -> Void) {
        for _ in 0..<producersLeft {
            let thread = Thread { [self] in
                produce(self)
                finishProducing()
            }
            thread.stackSize = 4 << 20  // decoders and the photo recipe keep sizeable frames
            thread.start()
        }
    }

    func push(_ item: Element) {
        condition.lock()
        while items.count - head >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// A producer says it is done; when all are, `pop` returns nil once empty.
    private func finishProducing() {
        condition.lock()
        producersLeft -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting at most `timeout` seconds; nil when the queue is
    /// empty and every producer has finished, or on timeout (check `isFinished`).
    func pop(timeout: TimeInterval) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while head == items.count {
            if producersLeft == 0 { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
        let item = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {  // compact now and then
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return producersLeft == 0 && head == items.count
    }
}
