internal import Catalogue
import Foundation
import Synchronization

/// The leases one process holds in a catalogue, by which several processes (on one machine
/// or several) split a run's work: files an import reads (`FileLeases`), images a
/// reclassification classifies (`ImageLeases`). It holds their connection (the run's writer
/// and readers are others' threads'), takes one take at a time through it, keeps every lease
/// of this process from expiring with a heartbeat while the process lives, and gives them
/// all up when the run ends, once its last batch is in. A process that dies loses its leases
/// when they expire, and the next process that wants that work takes it over; at once when
/// the holder was a process of this host that is certainly gone (`RunOwner.isGone`).
final class LeaseHolder: Sendable {
    /// How long a lease lasts without a heartbeat.
    static let seconds = 30.0
    /// How often the heartbeat renews them: a few beats may be late before one expires.
    static let heartbeatSeconds = 5.0

    /// The lease connection; nil once `end` has closed it.
    private let store: Mutex<Connection?>
    let owner = RunOwner.current
    private let stopHeartbeat = DispatchSemaphore(value: 0)
    private let heartbeatEnded = DispatchSemaphore(value: 0)

    init(location: String) throws {
        let connection = try CatalogueStorage.leaseHolder(location)
        store = Mutex(Connection(connection))
        try releaseGoneHolders()
        let thread = Thread { [self] in
            while stopHeartbeat.wait(timeout: .now() + Self.heartbeatSeconds) == .timedOut {
                // A failed renewal is not this thread's to report: the run meets the same
                // trouble in its next batch and ends then.
                try? store.withLock { try $0?.store.renewLeases(owner: owner, until: Date() + Self.seconds) }
            }
            heartbeatEnded.signal()
        }
        thread.start()
    }

    /// Runs `body` with the lease connection and the end of a lease taken now (nil once the
    /// run has ended).
    func take<T>(_ body: (any CatalogueStore, _ until: Date, _ now: Date) throws -> T) throws -> T? {
        let now = Date()
        return try store.withLock { connection in
            guard let connection else { return nil }
            return try body(connection.store, now + Self.seconds, now)
        }
    }

    /// Runs `body` with the lease connection, for a worker's read (`RunReader`): one at a
    /// time with the takes and the heartbeat.
    func read<T>(_ body: (any CatalogueStore) throws -> T) throws -> T {
        try store.withLock { connection in
            guard let connection else { throw CatalogueError.invalidArgument("the run's lease connection is closed") }
            return try body(connection.store)
        }
    }

    /// Gives up the leases of every process of this host that is gone; how many holders.
    @discardableResult
    func releaseGoneHolders() throws -> Int {
        try take { store, _, _ in
            let gone = try store.leaseOwners().filter(RunOwner.isGone)
            for owner in gone { try store.releaseLeases(owner: owner) }
            return gone.count
        } ?? 0
    }

    /// Stops the heartbeat and gives every lease up: once the run's last batch is committed,
    /// the work it stored is passed over by what it left (stored files, classified images),
    /// and the rest is free for others at once. The leases of this host's processes that are
    /// gone go too (those on work they had finished were never taken over, so are still
    /// there); a dead process of another host leaves its leases until they are taken over,
    /// or until a process of its host finds it gone. The connection is closed here, not left to
    /// whichever thread lets this go last: the heartbeat's may still hold it as the process
    /// exits, and SQLite empties the write-ahead log into the file only when the last
    /// connection closes.
    func end() {
        stopHeartbeat.signal()
        heartbeatEnded.wait()
        try? releaseGoneHolders()
        store.withLock { connection in
            try? connection?.store.releaseLeases(owner: owner)
            connection = nil
        }
    }

    /// The lease connection, which only the holder of the mutex uses.
    private struct Connection: @unchecked Sendable {
        let store: any CatalogueStore
        init(_ store: any CatalogueStore) { self.store = store }
    }
}
