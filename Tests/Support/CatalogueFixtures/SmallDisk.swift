import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted at a new folder, for tests of a full disk or of
/// read-only media; nil when it cannot be mounted (mounting needs root).
/// Unmounted and removed when released.
public final class SmallDisk {
    public let path: String

    public init?(megabytes: Int) {
        guard getuid() == 0 else { return nil }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-full-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil,
              mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    deinit {
        umount(path)
        try? FileManager.default.removeItem(atPath: path)
    }
}
