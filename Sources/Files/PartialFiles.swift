import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files being written under a temporary name before they get the name a person gave
/// (`OutputFile`, a backup's copy), which a signal that ends the process must not leave
/// behind. Writers register such a file while it exists; the signal handler that ends the
/// process (`InterruptFlag`) calls `removeAll()` first, so Ctrl-C, SIGTERM or a closed
/// terminal at any moment leave no part of an output, and the file it would have
/// replaced stays as it was.
///
/// `removeAll()` runs inside a signal handler, so it only loads atomics and calls `unlink`,
/// both safe there: no lock, no allocation. Each slot holds the address of a C string made
/// when the file was registered (0 when free); whoever takes it out of the slot, the writer
/// or the handler, is its one owner, so the handler never reads a string being freed.
public enum PartialFiles {
    /// More than a command ever writes at once (a backup's copy with its three SQLite side
    /// files, or an output and a thumbnail).
    private static let capacity = 8
    /// Whether the slots are made: a lazily made static, which the handler must not be the
    /// one to make (its one-time lock is not safe in a signal handler).
    private static let ready = Atomic<Bool>(false)
    /// Shared by every thread and the handler, safely so: each slot is only ever used atomically.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()

    /// A registered file; give it back to `unregister` once it is renamed or removed.
    public struct Registration: Sendable {
        fileprivate var slot: Int?
    }

    /// Registers `path` (absolute, or relative to a working directory that does not change)
    /// as a partial file until `unregister`.
    public static func register(_ path: String) -> Registration {
        guard let copy = strdup(path) else { return Registration(slot: nil) }
        let address = Int(bitPattern: copy)
        let slots = self.slots
        ready.store(true, ordering: .sequentiallyConsistent)
        for index in 0..<capacity
        where slots[index].compareExchange(expected: 0, desired: address, ordering: .sequentiallyConsistent).exchanged {
            return Registration(slot: index)
        }
        // Every slot taken: never so in wardrobe's commands; the file is then only removed
        // by its writer, as before.
        free(copy)
        return Registration(slot: nil)
    }

    /// The file has its final name, or is gone: a signal no longer concerns it.
    public static func unregister(_ registration: Registration) {
        guard let slot = registration.slot else { return }
        let address = slots[slot].exchange(0, ordering: .sequentiallyConsistent)
        if address != 0 { free(UnsafeMutableRawPointer(bitPattern: address)) }
    }

    /// Removes every registered file. Safe in a signal handler; the process ends after it.
    public static func removeAll() {
        guard ready.load(ordering: .sequentiallyConsistent) else { return }
        for index in 0..<capacity {
            let address = slots[index].exchange(0, ordering: .sequentiallyConsistent)
            if let path = UnsafePointer<CChar>(bitPattern: address) { unlink(path) }
        }
    }
}
