internal import Catalogue
import Foundation

/// The read-only connections of a catalogue that threads share (a server's): a
/// thread reading takes one no other thread is reading through, opened when none
/// is free, and gives it back when done: pages read in parallel without sharing a
/// connection, and each sees every change as soon as it is committed.
///
/// A PostgreSQL role or database allowed fewer connections than the server has
/// threads (`CONNECTION LIMIT 2`: the command's own and one more) refused the
/// threads past its limit, and their pages were 503s. Once the server refuses
/// another connection (`CatalogueError.serverFull`), a thread waits for one of
/// those already open, and no more are asked for; only when none is open is the
/// refusal the page's answer.
final class ThreadReaders: @unchecked Sendable {
    /// A connection and what is kept for it between reads.
    final class Reader {
        let store: any CatalogueStore
        /// The stats page's counts, taken again only after a commit (see `StatsCache`).
        let stats = StatsCache()

        init(_ store: any CatalogueStore) { self.store = store }
    }

    /// What each connection is opened with (see `CatalogueStore.location`).
    let location: String
    private let condition = NSCondition()
    /// Connections open and not being read through (under `condition`).
    private var free: [Reader] = []
    /// How many are open, free or not (under `condition`).
    private var opened = 0
    /// Whether the server refused one more: then threads wait for a free one (under `condition`).
    private var atLimit = false
    /// The reader the current thread holds, so that a read inside a read takes no second one.
    private let held = ThreadLocalReader()

    init(location: String) {
        self.location = location
    }

    /// `body` with a connection no other thread reads through meanwhile.
    func withReader<T>(_ body: (Reader) throws -> T) throws -> T {
        if let reader = held.value { return try body(reader) }
        let reader = try take()
        held.value = reader
        defer {
            held.value = nil
            condition.lock()
            free.append(reader)
            condition.signal()
            condition.unlock()
        }
        return try body(reader)
    }

    /// A free connection, a new one, or, once the server takes no more, the next one given back.
    private func take() throws -> Reader {
        condition.lock()
        while true {
            if let reader = free.popLast() {
                condition.unlock()
                return reader
            }
            if !atLimit || opened == 0 { break }
            condition.wait()
        }
        opened += 1
        condition.unlock()
        do {
            return Reader(try CatalogueStorage.reader(location, lookForDamage: true))
        } catch {
            condition.lock()
            opened -= 1
            if case CatalogueError.serverFull = error, opened > 0 {
                // Wait for one of those open instead; the refusal is the answer only when none is.
                atLimit = true
                condition.unlock()
                return try take()
            }
            condition.unlock()
            throw error
        }
    }

    /// A reader per thread, without a lock: only its own thread reads or sets it.
    private final class ThreadLocalReader: @unchecked Sendable {
        private var key = pthread_key_t()
        init() { pthread_key_create(&key, nil) }
        deinit { pthread_key_delete(key) }
        var value: Reader? {
            get { pthread_getspecific(key).map { Unmanaged<Reader>.fromOpaque($0).takeUnretainedValue() } }
            set { pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() }) }
        }
    }
}
