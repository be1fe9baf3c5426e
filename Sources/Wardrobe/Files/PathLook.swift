import Files
internal import Catalogue
import Foundation

/// Looks at the files behind known paths: `wardrobe prune`, and the part of
/// `import` that marks the files gone from a folder it walks. A path counts
/// as gone when `stat` says there is nothing there (ENOENT, ENOTDIR), and when
/// what is there is no file (a folder, a pipe, a socket, a device): the photo
/// is gone either way. A file the walk passed over (hidden, unreadable) is not gone.
public enum PathLook {
    /// What `prune` found and did.
    public struct Report: Sendable, Encodable {
        public var checked = 0
        /// Paths found gone that were there at the look before.
        public var newlyMissing = 0
        /// Paths gone now (newly or still).
        public var missing = 0
        /// Paths that were missing and are there again.
        public var back = 0
        /// Records of gone paths removed (`--drop-missing`).
        public var dropped = 0
        /// Failing files found gone, which fail no more.
        public var goneFailures = 0
        /// The paths asked for (as given) with no known path and no failing file at or under
        /// them: nothing was looked at there (a typo, a folder never imported).
        public var unknownPaths: [String] = []

        enum CodingKeys: String, CodingKey {
            case checked, newlyMissing = "newly_missing", missing, back, dropped, goneFailures = "gone_failures"
            case unknownPaths = "unknown_paths"
        }
    }

    /// Checks every known path, or those under `roots`, and records what it
    /// finds; with `dropMissing` the records of gone paths are removed (their
    /// images stay, with thumbnail and history).
    static func prune(_ roots: [String], dropMissing: Bool, in catalogue: any CatalogueStore) throws -> Report {
        var known: [KnownPath] = []
        var unknownPaths: [String] = []
        if roots.isEmpty {
            known = try catalogue.knownPaths()
        } else {
            for given in roots {
                let root = PathName.absolute(given)
                let before = known.count
                known += try catalogue.knownPaths(under: root)
                if let exact = try catalogue.knownPath(root) { known.append(exact) }
                if known.count == before, try catalogue.failingFile(root) == nil, try catalogue.failingFiles(under: root).isEmpty {
                    unknownPaths.append(given)
                }
            }
        }
        var present: [String] = [], missing: [String] = []
        for path in Set(known.map { PathName.Key($0.path) }).map(\.path).sorted() {
            switch existence(of: path) {
            case .present: present.append(path)
            case .gone: missing.append(path)
            case .unknown: continue
            }
        }
        let look = try catalogue.recordLook(present: present, missing: missing, dropMissing: dropMissing)
        // Failing files are looked at too: one deleted since it failed fails no more.
        let goneFailures = try goneFailures(under: roots, in: catalogue)
        try catalogue.stopFailing(goneFailures)
        return Report(checked: look.checked, newlyMissing: look.newlyMissing, missing: look.missing,
                      back: look.back, dropped: look.dropped, goneFailures: goneFailures.count, unknownPaths: unknownPaths)
    }

    /// Known paths under the folders among `roots` that the walk did not
    /// find and that are gone. Nothing outside those folders is looked at.
    static func gone(under roots: [String], walked: Set<PathName.Key>, in catalogue: any CatalogueStore) throws -> [String] {
        var gone: [String] = []
        for root in roots.map(PathName.absolute) {
            var info = stat()
            guard PathName.withSystemName(root, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            for known in try catalogue.knownPaths(under: root)
            where !known.isMissing && !walked.contains(PathName.Key(known.path)) && existence(of: known.path) == .gone {
                gone.append(known.path)
            }
        }
        return gone
    }

    /// This machine's failing files that are gone: every one, or those at or under `roots`,
    /// leaving out the paths a walk found (`walked`). A failure of a file deleted since is no
    /// longer one; another machine's path says nothing here.
    static func goneFailures(under roots: [String], walked: Set<PathName.Key> = [], in catalogue: any CatalogueStore) throws -> [String] {
        var failing: [FailingFile] = []
        if roots.isEmpty {
            failing = try catalogue.failingFiles().filter { $0.machine == catalogue.machine }
        } else {
            for root in roots.map(PathName.absolute) {
                failing += try catalogue.failingFiles(under: root)
                if let exact = try catalogue.failingFile(root) { failing.append(exact) }
            }
        }
        return Set(failing.map { PathName.Key($0.path) }).filter { !walked.contains($0) }.map(\.path).sorted()
            .filter { existence(of: $0) == .gone && !isBrokenLink($0) }
    }

    /// Whether `path` is a symbolic link that leads nowhere. Its file is gone, but its failure
    /// is the link's, which is still there: stopped, it was recorded anew by the next import.
    static func isBrokenLink(_ path: String) -> Bool {
        var link = stat(), target = stat()
        return PathName.withSystemName(path, { lstat($0, &link) }) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
            && PathName.withSystemName(path, { stat($0, &target) }) != 0
    }

    enum Existence { case present, gone, unknown }

    /// Through symbolic links, as the file is read: a link whose target is gone is gone. A folder
    /// that took a known file's name was taken as the file, still there (`prune` said it was back).
    /// What cannot be looked at (no permission, a loop of links) is unknown.
    static func existence(of path: String) -> Existence {
        var info = stat()
        guard PathName.withSystemName(path, { stat($0, &info) }) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .gone : .unknown
        }
        return (info.st_mode & S_IFMT) == S_IFREG ? .present : .gone
    }
}
