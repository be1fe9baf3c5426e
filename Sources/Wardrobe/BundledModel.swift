import Foundation

/// Finds the bundled `clothing.aimodel`: installed next to the binary
/// (`PREFIX/share/wardrobe/`), in the source tree the binary was built in
/// (`Models/`, found by walking up from `.build/...`), or in `./Models/`.
public enum BundledModel {
    public static let fileName = "clothing.aimodel"

    public enum LookupError: Error, CustomStringConvertible {
        case notFound(searched: [String])
        public var description: String {
            "the bundled model \(BundledModel.fileName) was not found (looked in \(searchedList)); pass --model FILE"
        }
        private var searchedList: String {
            if case .notFound(let searched) = self { return searched.joined(separator: ", ") }
            return ""
        }
    }

    public static func candidates(executable: URL = Self.executable,
                                  currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> [URL] {
        let binDirectory = executable.deletingLastPathComponent()
        var urls = [binDirectory.deletingLastPathComponent().appendingPathComponent("share/wardrobe/\(fileName)")]
        var directory = binDirectory
        for _ in 0..<5 {
            directory = directory.deletingLastPathComponent()
            urls.append(directory.appendingPathComponent("Models/\(fileName)"))
        }
        urls.append(currentDirectory.appendingPathComponent("Models/\(fileName)"))
        return urls
    }

    public static func locate() throws(LookupError) -> URL {
        let urls = candidates()
        guard let found = urls.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw .notFound(searched: urls.map(\.path))
        }
        return found
    }

    /// The running binary, symlinks resolved (so `.build/release` finds the tree).
    public static var executable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
    }
}
