import Files
import Foundation

/// What `import` asks of each file it found before reading any (`CatalogueStore.lookUp`):
/// the path stored under exactly its name, whether another stored name shows as it, and
/// its record of failing.
public struct PathLookup: Sendable {
    public let known: KnownPath?
    /// False when `known`; else `CatalogueStore.anotherFileShowsAs`.
    public let showsAsAnother: Bool
    public let failing: FailingFile?

    /// The answers for `paths` from the rows stored under their display names (`stored`,
    /// `failing`), read at once. Only a name with another canonical form, or a backslash in
    /// what is shown of it, is asked of the store again (`showsAsAnother`), as those few
    /// may meet rows stored under other display names.
    static func answers(for paths: [String], stored: [KnownPath], failing: [FailingFile],
                        showsAsAnother: (String) throws -> Bool) throws -> [PathLookup] {
        let storedByName = Dictionary(grouping: stored) { PathName.Key(PathName.display($0.path)) }
        let failingByName = Dictionary(grouping: failing) { PathName.Key(PathName.display($0.path)) }
        return try paths.map { path in
            let display = PathName.display(path)
            let sameDisplay = storedByName[PathName.Key(display)] ?? []
            let known = sameDisplay.first { PathName.same($0.path, path) }
            var another = false
            if known == nil {
                another = !PathName.otherForms(of: display).isEmpty || VisibleText.escaped(display).contains("\\")
                    ? try showsAsAnother(path) : !sameDisplay.isEmpty
            }
            return PathLookup(known: known, showsAsAnother: another,
                              failing: failingByName[PathName.Key(display)]?.first { PathName.same($0.path, path) })
        }
    }
}

extension CatalogueStore {
    /// Asked one path at a time: an SQLite catalogue answers each in microseconds.
    public func lookUp(_ paths: [String]) throws -> [PathLookup] {
        try paths.map { path in
            let known = try knownPath(path)
            return PathLookup(known: known, showsAsAnother: try known == nil && anotherFileShowsAs(path),
                              failing: try failingFile(path))
        }
    }
}
