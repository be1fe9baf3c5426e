import Foundation

/// The real photos of `../shared/data/clothing-photos/validation` (or under
/// `$WARDROBE_SHARED`), for tests that must run on what users have. Tests
/// copy a few into a temporary folder; nothing is copied into the repository.
enum RealPhotos {
    static let validation: URL? = {
        let root = ProcessInfo.processInfo.environment["WARDROBE_SHARED"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
        let folder = root.appendingPathComponent("data/clothing-photos/validation")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }()

    static let skipMessage = "../shared/data/clothing-photos/validation is absent (or set WARDROBE_SHARED): skipped"

    /// Copies the first `perFolder` photos of every class folder, in name
    /// order, to `destination/<class>/`; returns how many.
    @discardableResult
    static func copy(perFolder: Int, to destination: URL) throws -> Int {
        guard let validation else { return 0 }
        let manager = FileManager.default
        var copied = 0
        for folder in try manager.contentsOfDirectory(atPath: validation.path).sorted() {
            let source = validation.appendingPathComponent(folder)
            let target = destination.appendingPathComponent(folder)
            try manager.createDirectory(at: target, withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: source.path).sorted().prefix(perFolder) {
                try manager.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
                copied += 1
            }
        }
        return copied
    }
}
