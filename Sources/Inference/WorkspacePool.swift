import Foundation

/// Scratch memory for concurrent runs of one program. A caller takes a
/// workspace for the length of one run and gives it back; a new one is made
/// only when more callers run at once than ever before, so in a steady state
/// a run allocates nothing. The lock is held only to pop and push.
final class WorkspacePool: @unchecked Sendable {
    let floats: Int
    private let lock = NSLock()
    private var idle: [UnsafeMutablePointer<Float>] = []

    init(floats: Int) {
        self.floats = max(floats, 16)
        idle.reserveCapacity(64)
        idle.append(Self.allocate(self.floats))
    }

    deinit {
        for workspace in idle { UnsafeMutableRawPointer(workspace).deallocate() }
    }

    func acquire() -> UnsafeMutablePointer<Float> {
        lock.lock()
        let workspace = idle.popLast()
        lock.unlock()
        return workspace ?? Self.allocate(floats)
    }

    func release(_ workspace: UnsafeMutablePointer<Float>) {
        lock.lock()
        idle.append(workspace)
        lock.unlock()
    }

    private static func allocate(_ floats: Int) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer.allocate(byteCount: floats * 4, alignment: 64)
            .bindMemory(to: Float.self, capacity: floats)
    }
}
