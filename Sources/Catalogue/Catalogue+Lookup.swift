import Files
import Foundation

extension Catalogue {
    public func image(_ id: ImageID) throws -> ImageRecord? {
        try images(where: "id = :id", [":id": id]).first
    }

    public func image(sha256: SHA256Digest) throws -> ImageRecord? {
        try images(where: "sha256 = :sha256", [":sha256": sha256.bytes]).first
    }

    /// Whether an image with this hash is stored: one index probe, nothing decoded.
    public func containsImage(sha256: SHA256Digest) throws -> Bool {
        try database.scalarInt("SELECT 1 FROM images WHERE sha256 = :sha256", [":sha256": sha256.bytes]) != nil
    }

    /// The image whose hash starts with these hex digits (either case). Nil
    /// when none does; an error when several do.
    public func image(hashPrefix prefix: String) throws -> ImageRecord? {
        let (low, high) = try SHA256Digest.range(ofPrefix: prefix)
        // A range on the unique index: the prefix padded with 0s and with fs.
        let matches = try images(where: "sha256 BETWEEN :low AND :high LIMIT 2", [":low": low, ":high": high])
        if matches.count > 1 {
            let count = try database.scalarInt("SELECT count(*) FROM images WHERE sha256 BETWEEN :low AND :high",
                                               [":low": low, ":high": high]) ?? 2
            throw CatalogueError.ambiguousHashPrefix(prefix: prefix, matches: Int(count))
        }
        return matches.first
    }

    /// The image last seen at this path on this machine.
    public func image(path: String) throws -> ImageRecord? {
        try images(where: "id = (SELECT image_id FROM image_paths WHERE \(Self.exactPath))", exactPathArguments(path)).first
    }

    /// What the catalogue knows of a path: the image there and the file's size
    /// and time when it was seen, so an unchanged file can be skipped unhashed.
    /// A path is found by its display form and its exact bytes together: the display
    /// form of a name that is not UTF-8 (`\xFF.jpg`) can be another file's real name.
    public func knownPath(_ path: String) throws -> KnownPath? {
        try paths(where: Self.exactPath, exactPathArguments(path)).first
    }

    /// Whether another file of this machine, whose name has other bytes, is stored under a name that shows
    /// as `path` does, so that no output could tell the two apart and this one is not stored:
    /// the same display form (one path row holds one of them; a byte that is not UTF-8 shows
    /// as `\xHH`), or the same visible form (`VisibleText`: a line break shows as `\n`, as a
    /// backslash and an `n` do), or a canonically equivalent one in either usual form (an é
    /// written as one character, as on Linux, or as e and U+0301, as macOS writes names).
    public func anotherFileShowsAs(_ path: String) throws -> Bool {
        let display = PathName.display(path)
        if try database.scalarInt("""
            SELECT count(*) FROM image_paths WHERE machine = :machine AND path = :path AND path_bytes IS NOT :path_bytes
            """, exactPathArguments(path)) ?? 0 > 0 { return true }
        // SQLite compares bytes; Swift's == would call the forms equal, so bytes are compared here too.
        for form in PathName.otherForms(of: display) {
            if try database.scalarInt("SELECT count(*) FROM image_paths WHERE machine = :machine AND path = :path",
                                      [":machine": machine, ":path": form]) ?? 0 > 0 {
                return true
            }
        }
        // Two visible forms can only meet at a backslash; up to the first one, the stored
        // name is the visible form itself, so the rows to compare share that start.
        let visible = VisibleText.escaped(display)
        guard let backslash = visible.firstIndex(of: "\\") else { return false }
        let start = String(visible[..<backslash])
        return try paths(where: "machine = :machine AND path >= :low AND path < :high",
                              [":machine": machine, ":low": start, ":high": start + "\u{10FFFF}"]).contains {
            // Bytes, not strings: two canonically equivalent names are two files.
            !PathName.same($0.path, path) && VisibleText.escaped(PathName.display($0.path)) == visible
        }
    }

    /// Every path an image was seen at, on every machine: existing ones first, each group most
    /// recently seen first.
    public func paths(of image: ImageID) throws -> [KnownPath] {
        try paths(where: "image_id = :image", [":image": image])
    }

    /// The thumbnail's JPEG bytes, nil if the image has none.
    public func thumbnail(of image: ImageID) throws -> [UInt8]? {
        let statement = try database.cachedStatement("SELECT thumbnail FROM images WHERE id = :image")
        defer { statement.reset() }
        try statement.bind(image, to: ":image")
        guard try statement.step() else { return nil }
        return statement.optionalBlob("thumbnail")
    }

    /// The next `limit` images with thumbnails, in id order after `after`: the
    /// way to walk the whole catalogue for reclassification in batches. With
    /// `notClassifiedBy`, images that run already classified are passed over,
    /// so an interrupted reclassification resumes where it stopped.
    public func thumbnails(after: ImageID? = nil, limit: Int,
                           notClassifiedBy run: RunID? = nil) throws -> [(image: ImageID, thumbnail: [UInt8])] {
        let sql = """
            SELECT id, thumbnail FROM images AS i
            WHERE id > :after AND thumbnail IS NOT NULL
            \(run == nil ? "" : "AND NOT EXISTS (SELECT 1 FROM classifications WHERE image_id = i.id AND run_id = :run)")
            ORDER BY id LIMIT :limit
            """
        var arguments: SQLArguments = [":after": after?.rawValue ?? 0, ":limit": limit]
        if let run { arguments[":run"] = run }
        return try database.rows(sql, arguments) { (ImageID($0.int64("id")), $0.blob("thumbnail")) }
    }

    /// A path of this machine by its display form and its exact bytes, with `exactPathArguments`.
    private static let exactPath = "machine = :machine AND path = :path AND path_bytes IS :path_bytes"

    private func exactPathArguments(_ path: String) -> SQLArguments {
        [":machine": machine, ":path": PathName.display(path), ":path_bytes": PathName.exactBytes(of: path)]
    }

    private func images(where condition: String, _ arguments: SQLArguments) throws -> [ImageRecord] {
        try database.records("SELECT \(ImageRecord.Columns.list) FROM images WHERE \(condition)", arguments,
                             as: ImageRecord.Columns.self)
    }

    func paths(where condition: String, _ arguments: SQLArguments) throws -> [KnownPath] {
        try database.records("""
            SELECT \(KnownPath.Columns.list) FROM image_paths
            WHERE \(condition) ORDER BY missing, last_seen DESC, path DESC
            """, arguments, as: KnownPath.Columns.self)
    }
}
