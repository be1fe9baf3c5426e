import Foundation

/// A fresh folder under the system's temporary directory; remove it with `defer`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogue-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Where a test body runs: the same checks against an in-memory and a file catalogue.
enum Storage: CaseIterable, CustomStringConvertible, Sendable {
    case memory, file

    var description: String { self == .memory ? "in memory" : "on disk" }
}
