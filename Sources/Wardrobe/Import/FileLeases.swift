internal import Catalogue
import Files
import Foundation
import Synchronization

/// How several `wardrobe import` processes on one folder and one catalogue split its files,
/// so that each file is read by one of them: before a worker reads a take of files, this
/// process takes their leases in the catalogue (`CatalogueStore.leaseFiles`), and reads only
/// the files it got. A file another process holds, or has stored or failed by now, is passed
/// over. A heartbeat keeps this process's leases from expiring while it lives; a process
/// that dies loses its leases when they expire, and the next importer to want those files
/// takes them over (at once, when the holder was a process of this host that is certainly
/// gone, as `RunOwner` judges an abandoned run's). The leases are given up when the run
/// ends, once its last batch is in.
///
/// Leases are taken through a connection of their own (the run's writer and readers are
/// others' threads'), one take at a time.
final class FileLeases: Sendable {
    /// How long a lease lasts without a heartbeat.
    static let seconds = 30.0
    /// How often the heartbeat renews them: a few beats may be late before one expires.
    static let heartbeatSeconds = 5.0

    /// The lease connection; nil once `end` has closed it.
    private let store: Mutex<Holder?>
    private let files: [FoundFile]
    private let owner = RunOwner.current
    private let passedOver = Atomic<Int>(0)
    private let stopHeartbeat = DispatchSemaphore(value: 0)
    private let heartbeatEnded = DispatchSemaphore(value: 0)

    /// `files` are the run's items, by their index in it.
    init(location: String, files: [FoundFile]) throws {
        let connection = try CatalogueStorage.leaseHolder(location)
        for gone in try connection.leaseOwners() where RunOwner.isGone(gone) { try connection.releaseLeases(owner: gone) }
        store = Mutex(Holder(connection))
        self.files = files
        let thread = Thread { [self] in
            while stopHeartbeat.wait(timeout: .now() + Self.heartbeatSeconds) == .timedOut {
                // A failed renewal is not this thread's to report: the run meets the same
                // trouble in its next batch and ends then.
                try? store.withLock { try $0?.connection.renewLeases(owner: owner, until: Date() + Self.seconds) }
            }
            heartbeatEnded.signal()
        }
        thread.start()
    }

    /// The files of `take` (indices of the run's items) this process may read: those whose
    /// leases it got.
    @Sendable func admit(_ take: Range<Int>) throws -> [Int] {
        let now = Date()
        let answers = try store.withLock { holder -> [Bool] in
            guard let holder else { return take.map { _ in false } }
            return try holder.connection.leaseFiles(take.map { files[$0].seen }, owner: owner, until: now + Self.seconds, at: now)
        }
        let won = zip(take, answers).filter(\.1).map(\.0)
        passedOver.add(take.count - won.count, ordering: .relaxed)
        return won
    }

    /// Files another process held, or had done, when this one came to them.
    var filesPassedOver: Int { passedOver.load(ordering: .relaxed) }

    /// Stops the heartbeat and gives every lease up: once the run's last batch is committed,
    /// the stored files are passed over by their paths, and those not read by their leases' end.
    /// The connection is closed here, not left to whichever thread lets this go last: the
    /// heartbeat's may still hold it as the process exits, and SQLite empties the write-ahead
    /// log into the file only when the last connection closes.
    func end() {
        stopHeartbeat.signal()
        heartbeatEnded.wait()
        store.withLock { holder in
            try? holder?.connection.releaseLeases(owner: owner)
            holder = nil
        }
    }

    /// The lease connection, which only the holder of the mutex uses.
    private struct Holder: @unchecked Sendable {
        let connection: any CatalogueStore
        init(_ connection: any CatalogueStore) { self.connection = connection }
    }
}
