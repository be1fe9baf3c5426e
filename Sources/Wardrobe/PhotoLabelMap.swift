import Files
import Foundation

/// Which model labels count as right for each folder of labelled photos.
///
/// File format, one folder per line: `folder: Label, Label` (labels as the contract spells
/// them), `folder: none` to exclude a folder that has no matching label; `#` starts a comment.
public struct PhotoLabelMap: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var folder: String
        /// Empty for an excluded folder.
        public var accepted: [String]

        public init(folder: String, accepted: [String]) {
            self.folder = folder
            self.accepted = accepted
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public init(contentsOf path: String) throws(WardrobeError) {
        let text: String
        do {
            text = String(decoding: try RegularFile.read(path, maxSize: 1 << 24), as: UTF8.self)
        } catch {
            throw .invalidArgument("map \(path): cannot read: \(error.reason)")
        }
        try self.init(parsing: text, path: path)
    }

    public init(parsing text: String, path: String) throws(WardrobeError) {
        var entries = [Entry]()
        // Split on any line end: "\r\n" is one Character, so splitting on "\n" kept a file
        // saved on Windows as one line. A byte-order mark before the first line is dropped.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidArgument("map \(path) line \(number + 1): expected 'folder: Label, Label' or 'folder: none'")
            }
            let folder = line[..<colon].trimmingCharacters(in: .whitespaces)
            let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !folder.isEmpty else { throw .invalidArgument("map \(path) line \(number + 1): missing folder name") }
            guard !entries.contains(where: { $0.folder == folder }) else {
                throw .invalidArgument("map \(path) line \(number + 1): folder '\(folder)' is mapped twice")
            }
            let accepted = rest.lowercased() == "none" ? [] :
                rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for label in accepted where !ClothingClassifier.labels.contains(label) {
                throw .invalidArgument("map \(path) line \(number + 1): '\(label)' is not one of the labels \(ClothingClassifier.labels.joined(separator: ", "))")
            }
            guard rest.lowercased() == "none" || !accepted.isEmpty else {
                throw .invalidArgument("map \(path) line \(number + 1): no labels for '\(folder)' (write 'none' to exclude it)")
            }
            entries.append(Entry(folder: folder, accepted: accepted))
        }
        guard entries.contains(where: { !$0.accepted.isEmpty }) else {
            throw .invalidArgument("map \(path): no folder is mapped to a label")
        }
        self.entries = entries
    }

    /// The folders mapped to labels that are no folder under `directory`: a typo in
    /// the map, or the wrong folder given. Training and evaluation say so, where they
    /// used to leave such a folder out without a word.
    public func absentFolders(under directory: String) -> [String] {
        entries.filter { !$0.accepted.isEmpty && !FileManager.default.isDirectory(directory + "/" + $0.folder) }.map(\.folder)
    }

    /// The files a folder of labelled photos is read from, as `import` walks a
    /// folder: in its subfolders too (shoes/boots/...), sorted, leaving out hidden
    /// files and folders and files named as no photo (`PhotoFinder.notPhotoExtensions`).
    /// Subfolders used to be passed over without a word.
    public static func photoFiles(in folder: String) -> [String] {
        PhotoFinder().find([folder]).files.map(\.path)
    }
}
