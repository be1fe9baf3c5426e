import Files
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
            // Decoded as a folder listing is (`PathName`): a folder whose name is not UTF-8 is
            // written in the map as its bytes, and they must stay those bytes to name it.
            text = PathName.decode(try RegularFile.read(path, maxSize: 1 << 24))
        } catch {
            throw .invalidArgument("map \(path): cannot read: \(error.reason)")
        }
        try self.init(parsing: text, path: path)
    }

    public init(parsing text: String, path: String) throws(WardrobeError) {
        var entries = [Entry]()
        // A set, not a search of the entries so far: a map of 20,000 lines took minutes.
        var folders = Set<PathName.Key>()
        // Split on any line end: "\r\n" is one Character, so splitting on "\n" kept a file
        // saved on Windows as one line. A byte-order mark before the first line is dropped.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            // The last colon: no label holds one, and a folder may ("10:30 shoot: Coat").
            guard let colon = line.lastIndex(of: ":") else {
                throw .invalidArgument("map \(path) line \(number + 1): expected 'folder: Label, Label' or 'folder: none'")
            }
            let folder = line[..<colon].trimmingCharacters(in: .whitespaces)
            let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !folder.isEmpty else { throw .invalidArgument("map \(path) line \(number + 1): missing folder name") }
            // One name of a folder under the photos' folder: 'shoes/' or './shoes' named the folder
            // 'shoes' under another spelling, which evaluate passed over and train did not.
            guard !folder.contains("/"), folder != ".", folder != ".." else {
                throw .invalidArgument("map \(path) line \(number + 1): '\(folder)' is not the name of a folder "
                                       + "in the photos' folder (one name, without '/')")
            }
            // Compared as bytes, as the system compares names: 'café' and 'cafe\u{301}' are two folders.
            guard folders.insert(PathName.Key(folder)).inserted else {
                throw .invalidArgument("map \(path) line \(number + 1): folder '\(folder)' is mapped twice")
            }
            let accepted = rest.lowercased() == "none" ? [] :
                rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for label in accepted where !ClothingClassifier.labels.contains(label) {
                throw .invalidArgument("map \(path) line \(number + 1): \(LabelMatcher.quoted(label)) is not one of the labels \(ClothingClassifier.labels.joined(separator: ", "))")
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
    /// the map, or the wrong folder given. Training and evaluation say so, rather than
    /// leave such a folder out without a word.
    public func absentFolders(under directory: String) -> [String] {
        entries.filter { !$0.accepted.isEmpty && !Self.isFolder(directory + "/" + $0.folder) }.map(\.folder)
    }

    /// Why `path` is no folder to read photos from, as `import` says it (nil when it is one): not
    /// there, a link that leads nowhere or in a loop, a file. All were 'not found'.
    public static func notAFolder(_ path: String) -> String? {
        var info = stat()
        guard PathName.withSystemName(path, { stat($0, &info) }) == 0 else { return PhotoFinder.reason(path, error: errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { return nil }
        return type == S_IFREG ? "is a file, not a folder" : "is \(RegularFile.describe(type)), not a folder"
    }

    /// True when `path` (its bytes, as `PathName` keeps them) is a folder, or a link to one.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return PathName.withSystemName(path, { stat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The files each entry's folder under `directory` is read from (in entry order; nil for
    /// a folder that is not there), as `import` walks a folder: in its subfolders too
    /// (shoes/boots/...), sorted, leaving out hidden files and folders and files named as no
    /// photo (`PhotoFinder.notPhotoExtensions`). One walk for all: a symbolic link never leads
    /// into another entry's folder or back into `directory`, so a photo counts once, under its
    /// own folder's labels (a link to '..' inside 'pants' counted the shoes as trousers). What
    /// cannot be walked (a link that leads nowhere or loops, a folder that cannot be read) is
    /// a problem with its reason, as `import` names it; it was passed over without a word.
    public func photoFiles(under directory: String) -> (files: [[String]?], problems: [(path: String, reason: String)]) {
        let folders = entries.map { directory + "/" + $0.folder }
        let present = folders.map(Self.isFolder)
        let found = PhotoFinder().findEach(zip(folders, present).filter(\.1).map(\.0), fencing: [directory])
        var walked = found.files.makeIterator()
        return (present.map { $0 ? walked.next()!.map(\.path) : nil }, found.problems)
    }
}
