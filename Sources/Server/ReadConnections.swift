import Catalogue
#if canImport(Glibc)
import Glibc
#endif

/// One read-only catalogue connection per worker thread, opened on the
/// thread's first request and closed when the thread ends: pages read in
/// parallel without sharing a connection or taking a lock, and each sees
/// every correction as soon as it is committed (WAL).
final class ReadConnections: @unchecked Sendable {
    let path: String
    private var key = pthread_key_t()

    init(path: String) {
        self.path = path
        pthread_key_create(&key) { connection in
            if let connection { Unmanaged<Catalogue>.fromOpaque(connection).release() }
        }
    }

    /// This thread's connection.
    func catalogue() throws -> Catalogue {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Catalogue>.fromOpaque(existing).takeUnretainedValue()
        }
        let opened = try Catalogue(path: path, mode: .readOnly)
        pthread_setspecific(key, Unmanaged.passRetained(opened).toOpaque())
        return opened
    }
}
