import Dispatch
import Foundation

/// Answers to requests sent from other threads at once, waited for together.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<RawHTTP.Response, any Error>?]
    private let arrived = DispatchSemaphore(value: 0)

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<RawHTTP.Response, any Error>) {
        lock.withLock { results[index] = result }
        arrived.signal()
    }

    /// Every answer, in the order of the requests, once all have come within `seconds`.
    func wait(seconds: Double) throws -> [Result<RawHTTP.Response, any Error>] {
        let deadline = DispatchTime.now() + seconds
        for _ in results.indices where arrived.wait(timeout: deadline) == .timedOut {
            throw RawHTTPError("not every request was answered within \(seconds) s")
        }
        return lock.withLock { results.compactMap { $0 } }
    }
}
