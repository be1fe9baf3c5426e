internal import Catalogue
#if canImport(Glibc)
import Glibc
#endif

/// One read-only connection per thread of a catalogue that threads share (a
/// server's), opened on the thread's first read and closed when the thread
/// ends: pages read in parallel without sharing a connection or taking a
/// lock, and each sees every change as soon as it is committed.
final class ThreadReaders: @unchecked Sendable {
    /// A thread's connection and what is kept for it between reads.
    final class Reader {
        let store: any CatalogueStore
        /// The stats page's counts, taken again only after a commit (see `StatsCache`).
        let stats = StatsCache()

        init(_ store: any CatalogueStore) { self.store = store }
    }

    /// What each thread's connection is opened with (see `CatalogueStore.location`).
    let location: String
    private var key = pthread_key_t()

    init(location: String) {
        self.location = location
        pthread_key_create(&key) { reader in
            if let reader { Unmanaged<Reader>.fromOpaque(reader).release() }
        }
    }

    /// This thread's connection with its caches.
    func reader() throws -> Reader {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Reader>.fromOpaque(existing).takeUnretainedValue()
        }
        let opened = Reader(try CatalogueStorage.reader(location, lookForDamage: true))
        pthread_setspecific(key, Unmanaged.passRetained(opened).toOpaque())
        return opened
    }
}
