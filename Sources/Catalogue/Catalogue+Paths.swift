import Files
import Foundation

/// What a look at known paths found and did.
public struct PathCheck: Sendable, Equatable {
    /// Paths looked at.
    public var checked = 0
    /// Paths found gone at this look that were there before.
    public var newlyMissing = 0
    /// Paths gone at this look (newly or still).
    public var missing = 0
    /// Paths that were missing and are back.
    public var back = 0
    /// Records of gone paths removed (`dropMissing`).
    public var dropped = 0

    public init() {}
}

extension Catalogue {
    /// Every known path of this machine, or those under `folder` (the folder's own path
    /// followed by `/`), in path order: a range of the primary key.
    public func knownPaths(under folder: String? = nil) throws -> [KnownPath] {
        guard let folder else { return try paths(where: "machine = :machine", [":machine": machine]) }
        let (low, high) = Catalogue.range(under: PathName.display(folder))
        return try paths(where: "machine = :machine AND path > :low AND path < :high",
                             [":machine": machine, ":low": low, ":high": high])
    }

    /// Records a look at known paths of this machine, in one transaction: `present` were
    /// there (seen now), `missing` were gone. With `dropMissing`, the records
    /// of the gone ones are removed; their images stay, with thumbnail and
    /// history. Paths the catalogue does not know are passed over.
    @discardableResult
    public func recordLook(present: [String], missing: [String], dropMissing: Bool = false,
                           at date: Date = Date()) throws -> PathCheck {
        let now = date.catalogueMilliseconds
        var check = PathCheck()
        try database.transaction {
            for path in present.map(PathName.display) {
                guard let wasMissing = try database.scalarInt(
                    "SELECT missing FROM image_paths WHERE machine = :machine AND path = :path",
                    [":machine": machine, ":path": path]) else { continue }
                try database.execute(
                    "UPDATE image_paths SET missing = 0, last_seen = :now, checked_at = :now WHERE machine = :machine AND path = :path",
                    [":now": now, ":machine": machine, ":path": path])
                check.checked += 1
                if wasMissing != 0 { check.back += 1 }
            }
            for path in missing.map(PathName.display) {
                guard let wasMissing = try database.scalarInt(
                    "SELECT missing FROM image_paths WHERE machine = :machine AND path = :path",
                    [":machine": machine, ":path": path]) else { continue }
                check.checked += 1
                check.missing += 1
                if wasMissing == 0 { check.newlyMissing += 1 }
                if dropMissing {
                    try database.execute("DELETE FROM image_paths WHERE machine = :machine AND path = :path",
                                         [":machine": machine, ":path": path])
                    check.dropped += 1
                } else {
                    try database.execute("UPDATE image_paths SET missing = 1, checked_at = :now WHERE machine = :machine AND path = :path",
                                         [":now": now, ":machine": machine, ":path": path])
                }
            }
        }
        return check
    }

    /// The key range of the paths under `folder`: after "folder/" and before
    /// "folder0" ('0' follows '/' in byte order), so no pattern escaping.
    static func range(under folder: String) -> (String, String) {
        var base = folder
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if base == "/" { return ("/", "0") }
        return (base + "/", base + "0")
    }
}
