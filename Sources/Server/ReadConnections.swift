import Catalogue
#if canImport(Glibc)
import Glibc
#endif

/// One read-only catalogue connection per worker thread, opened on the
/// thread's first request and closed when the thread ends: pages read in
/// parallel without sharing a connection or taking a lock, and each sees
/// every correction as soon as it is committed (WAL).
final class ReadConnections: @unchecked Sendable {
    /// A thread's connection and what is kept for it between requests.
    final class Reader {
        let catalogue: Catalogue
        /// The stats page's counts, taken again only after a commit (see `StatsCache`).
        let stats = StatsCache()

        init(_ catalogue: Catalogue) { self.catalogue = catalogue }
    }

    let path: String
    private var key = pthread_key_t()

    init(path: String) {
        self.path = path
        pthread_key_create(&key) { reader in
            if let reader { Unmanaged<Reader>.fromOpaque(reader).release() }
        }
    }

    /// This thread's connection.
    func catalogue() throws -> Catalogue { try reader().catalogue }

    /// This thread's connection with its caches.
    func reader() throws -> Reader {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Reader>.fromOpaque(existing).takeUnretainedValue()
        }
        let opened = Reader(try Catalogue(path: path, mode: .readOnly))
        pthread_setspecific(key, Unmanaged.passRetained(opened).toOpaque())
        return opened
    }
}
