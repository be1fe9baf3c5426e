import Files
import Foundation

/// Images, their paths and thumbnails, the look at known paths and `forget`:
/// `Catalogue+Lookup`, `+Paths` and `+Forget` in PostgreSQL's SQL.
extension PostgresCatalogue {
    public func image(_ id: ImageID) throws -> ImageRecord? {
        try images(where: "id = :id", [":id": id]).first
    }

    public func image(sha256: SHA256Digest) throws -> ImageRecord? {
        try images(where: "sha256 = :sha256", [":sha256": sha256.bytes]).first
    }

    public func containsImage(sha256: SHA256Digest) throws -> Bool {
        // A worker asks this for every file it reads: parsed and planned once per connection.
        try connection.queryPrepared("SELECT 1 FROM images WHERE sha256 = :sha256", [":sha256": sha256.bytes]).count > 0
    }

    /// The image whose hash starts with these hex digits: a range on the unique index, as in SQLite.
    public func image(hashPrefix prefix: String) throws -> ImageRecord? {
        let (low, high) = try SHA256Digest.range(ofPrefix: prefix)
        let matches = try images(where: "sha256 BETWEEN :low AND :high LIMIT 2", [":low": low, ":high": high])
        if matches.count > 1 {
            let count = try connection.scalarInt("SELECT count(*) FROM images WHERE sha256 BETWEEN :low AND :high",
                                                 [":low": low, ":high": high]) ?? 2
            throw CatalogueError.ambiguousHashPrefix(prefix: prefix, matches: Int(count))
        }
        return matches.first
    }

    public func image(path: String) throws -> ImageRecord? {
        try images(where: """
            id = (SELECT image_id FROM image_paths WHERE \(Self.exactPath))
            """, exactPathArguments(path)).first
    }

    public func knownPath(_ path: String) throws -> KnownPath? {
        try paths(where: Self.exactPath, exactPathArguments(path)).first
    }

    /// Every known path of this machine, or those under `folder`: a range of the primary key,
    /// whose byte order (COLLATE "C") is SQLite's.
    public func knownPaths(under folder: String?) throws -> [KnownPath] {
        guard let folder else { return try paths(where: "machine = :machine", [":machine": machine]) }
        let (low, high) = Catalogue.range(under: PathName.display(folder))
        return try paths(where: "machine = :machine AND path > :low AND path < :high",
                         [":low": low, ":high": high, ":machine": machine])
    }

    /// As `Catalogue.anotherFileShowsAs`: the same display form with other bytes, a
    /// canonically equivalent form, or the same visible form.
    public func anotherFileShowsAs(_ path: String) throws -> Bool {
        let display = PathName.display(path)
        if try connection.scalarInt(
            "SELECT count(*) FROM image_paths WHERE machine = :machine AND path = :path AND path_bytes IS DISTINCT FROM :path_bytes",
            [":path": display, ":path_bytes": PathName.exactBytes(of: path), ":machine": machine]) ?? 0 > 0 { return true }
        for form in PathName.otherForms(of: display) {
            if try connection.scalarInt("SELECT count(*) FROM image_paths WHERE machine = :machine AND path = :form",
                                        [":form": form, ":machine": machine])
                ?? 0 > 0 { return true }
        }
        let visible = VisibleText.escaped(display)
        guard let backslash = visible.firstIndex(of: "\\") else { return false }
        let start = String(visible[..<backslash])
        return try paths(where: "machine = :machine AND path >= :low AND path < :high",
                         [":low": start, ":high": start + "\u{10FFFF}", ":machine": machine]).contains {
            !PathName.same($0.path, path) && VisibleText.escaped(PathName.display($0.path)) == visible
        }
    }

    /// In two statements for all of `paths`, where one at a time took three round trips each.
    public func lookUp(_ paths: [String]) throws -> [PathLookup] {
        guard !paths.isEmpty else { return [] }
        var byName: PostgresArguments = [:]
        let names = Set(paths.map { PathName.Key(PathName.display($0)) }).map { byName.add($0.path, as: "path") }
            .joined(separator: ", ")
        var onThisMachine = byName
        let here = onThisMachine.add(machine, as: "machine")
        return try PathLookup.answers(
            for: paths, stored: self.paths(where: "machine = \(here) AND path IN (\(names))", onThisMachine),
            failing: records("SELECT \(FailingFile.Columns.list) FROM failing_files WHERE machine = \(here) AND path IN (\(names))",
                             onThisMachine, as: FailingFile.Columns.self),
            showsAsAnother: anotherFileShowsAs)
    }

    public func paths(of image: ImageID) throws -> [KnownPath] {
        try paths(where: "image_id = :image", [":image": image])
    }

    public func thumbnail(of image: ImageID) throws -> [UInt8]? {
        try rows("SELECT thumbnail FROM images WHERE id = :image",
                 [":image": image]) { $0.optionalBlob("thumbnail") }.first ?? nil
    }

    public func thumbnail(sha256: SHA256Digest) throws -> [UInt8]? {
        try rows("SELECT thumbnail FROM images WHERE sha256 = :sha256",
                 [":sha256": sha256.bytes]) { $0.optionalBlob("thumbnail") }.first ?? nil
    }

    /// A thousand hashes a statement: one a statement, a model that learned from 200,000 images
    /// made each `reclassify` with it ask the server 200,000 questions (13 s) before its first image.
    public func imageIDs(withSHA256 hashes: [SHA256Digest]) throws -> Set<ImageID> {
        var found: Set<ImageID> = []
        for start in stride(from: 0, to: hashes.count, by: 1000) {
            var parameters = PostgresParameters()
            let list = hashes[start..<min(start + 1000, hashes.count)].map { parameters.add($0.bytes) }
            for id in try rows(numbered: "SELECT id FROM images WHERE sha256 IN (\(list.joined(separator: ", ")))", parameters,
                               { $0.int64(0) }) {
                found.insert(ImageID(id))
            }
        }
        return found
    }

    /// Records a look at known paths, in one transaction (see `Catalogue.recordLook`).
    public func recordLook(present: [String], missing: [String], dropMissing: Bool, at date: Date) throws -> PathCheck {
        let now = date.catalogueMilliseconds
        var check = PathCheck()
        try connection.transaction {
            for path in present.map(PathName.display) {
                guard let wasMissing = try connection.scalarInt(
                    "SELECT missing FROM image_paths WHERE machine = :machine AND path = :path",
                    [":path": path, ":machine": machine]) else { continue }
                try connection.execute(
                    "UPDATE image_paths SET missing = 0, last_seen = :now, checked_at = :now WHERE machine = :machine AND path = :path",
                    [":now": now, ":path": path, ":machine": machine])
                check.checked += 1
                if wasMissing != 0 { check.back += 1 }
            }
            for path in missing.map(PathName.display) {
                guard let wasMissing = try connection.scalarInt(
                    "SELECT missing FROM image_paths WHERE machine = :machine AND path = :path",
                    [":path": path, ":machine": machine]) else { continue }
                check.checked += 1
                check.missing += 1
                if wasMissing == 0 { check.newlyMissing += 1 }
                if dropMissing {
                    try connection.execute("DELETE FROM image_paths WHERE machine = :machine AND path = :path",
                                           [":path": path, ":machine": machine])
                    check.dropped += 1
                } else {
                    try connection.execute("UPDATE image_paths SET missing = 1, checked_at = :now WHERE machine = :machine AND path = :path",
                                           [":now": now, ":path": path, ":machine": machine])
                }
            }
        }
        return check
    }

    /// Removes images for good, in one transaction (see `Catalogue.forget`). Every query stops
    /// seeing them at the commit; their old row versions stay in the server's files until VACUUM
    /// reclaims the space, which `ForgetReport.serverNote` says.
    public func forget(_ images: [ImageID]) throws -> ForgetReport {
        var report = ForgetReport()
        try connection.transaction {
            for image in images {
                guard try connection.scalarInt("SELECT 1 FROM images WHERE id = :image", [":image": image]) != nil else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                // Lifts the rule that classifications are never deleted, for this image only.
                try connection.execute("INSERT INTO images_being_forgotten (image_id) VALUES (:image)", [":image": image])
                try connection.execute("DELETE FROM current_classifications WHERE image_id = :image", [":image": image])
                report.corrections += try connection.execute("DELETE FROM corrections WHERE image_id = :image", [":image": image])
                report.colourCorrections += try connection.execute("DELETE FROM colour_corrections WHERE image_id = :image",
                                                                   [":image": image])
                try connection.execute("DELETE FROM dismissed_duplicates WHERE image_id = :image OR other_image_id = :image",
                                       [":image": image])
                try connection.execute("DELETE FROM prepared_tensors WHERE image_id = :image", [":image": image])
                report.classifications += try connection.execute("DELETE FROM classifications WHERE image_id = :image",
                                                                 [":image": image])
                report.paths += try connection.execute("DELETE FROM image_paths WHERE image_id = :image", [":image": image])
                report.images += try connection.execute("DELETE FROM images WHERE id = :image", [":image": image])
                try connection.execute("DELETE FROM images_being_forgotten WHERE image_id = :image", [":image": image])
            }
        }
        report.serverNote = "on PostgreSQL the removed rows' old versions stay in the server's files until VACUUM "
            + "reclaims them; run VACUUM FULL on images, classifications and image_paths to rewrite those files now"
        return report
    }

    /// As `Catalogue.finishForgetting`: the server reclaims removed rows itself (VACUUM), as
    /// `forget`'s note says, so nothing is left for a later forget to finish.
    @discardableResult
    public func finishForgetting() throws -> Bool { true }

    /// A path of this machine by its display form and its exact bytes, with `exactPathArguments`.
    private static let exactPath = "machine = :machine AND path = :path AND path_bytes IS NOT DISTINCT FROM :path_bytes"

    private func exactPathArguments(_ path: String) -> PostgresArguments {
        [":machine": machine, ":path": PathName.display(path), ":path_bytes": PathName.exactBytes(of: path)]
    }

    private func images(where condition: String, _ arguments: PostgresArguments) throws -> [ImageRecord] {
        try records("SELECT \(ImageRecord.Columns.list) FROM images WHERE \(condition)", arguments, as: ImageRecord.Columns.self)
    }

    private func paths(where condition: String, _ arguments: PostgresArguments) throws -> [KnownPath] {
        try records("""
            SELECT \(KnownPath.Columns.list) FROM image_paths
            WHERE \(condition) ORDER BY missing, last_seen DESC, path DESC
            """, arguments, as: KnownPath.Columns.self)
    }
}
