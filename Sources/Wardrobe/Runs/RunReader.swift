internal import Catalogue

/// How a run's worker reads the catalogue. On a catalogue file each worker reads through its
/// own read-only connection: SQLite's readers never wait for one another. On a server each
/// connection is a server process, and `--jobs` defaults to the number of cores: ten 32-core
/// machines importing into one catalogue asked for 340, over PostgreSQL's default limit of
/// 100. There the workers of a process read through its lease connection (`LeaseHolder`), one
/// read at a time: a read is one short statement beside milliseconds of decoding.
final class RunReader {
    private enum Source {
        case own(any CatalogueStore)
        case shared(LeaseHolder)
    }

    private let source: Source

    /// A worker's own read-only connection to the catalogue at `location`.
    init(ownConnectionTo location: String) throws {
        // The writer's connection looked for damage as the run began; a worker looking again
        // only races other processes' checkpoints (short reads seen with four concurrent
        // imports of one folder).
        source = .own(try CatalogueStorage.reader(location, lookForDamage: false))
    }

    /// Reads through the process's lease connection, shared with its other workers.
    init(sharing holder: LeaseHolder) {
        source = .shared(holder)
    }

    /// Runs `body` with the connection to read through.
    func read<T>(_ body: (any CatalogueStore) throws -> T) throws -> T {
        switch source {
        case .own(let store): try body(store)
        case .shared(let holder): try holder.read(body)
        }
    }
}
