import Foundation

/// A small tmpfs mounted at a new folder, or nil (with the reason) when that cannot be done.
final class SmallDisk {
    let path: String

    init?(megabytes: Int) {
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
