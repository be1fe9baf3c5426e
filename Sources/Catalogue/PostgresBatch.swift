import Files
import Foundation

/// One batch of a run's writes to a PostgreSQL catalogue, inside
/// `PostgresCatalogue.writing(run:at:_:)`: the statements of `RunBatch`, in
/// PostgreSQL's SQL, all in the batch's one transaction. Whether content is
/// new is decided inside it (`ON CONFLICT DO NOTHING ... RETURNING`), so two
/// machines importing the same photo store it once.
///
/// Each call asks the server a few questions for the whole batch, not a few per
/// image: which contents, paths and classifications are stored (one statement
/// each), then the new rows of each table in one multi-row statement, in the
/// batch's order, so that ids come in the order SQLite gives them. What a later
/// image of the batch finds of an earlier one (the same content twice, the same
/// path twice) is worked out here as the statements one by one would find it.
struct PostgresBatch: CatalogueBatch {
    let catalogue: PostgresCatalogue
    let context: Catalogue.RunContext
    /// Every row of the batch carries this time.
    let now: Int64

    var run: RunID { context.run }
    private var connection: PostgresConnection { catalogue.connection }

    func insertImages(_ images: [NewImage], known: KnownContent) throws -> [InsertedImage] {
        for image in images {
            if let classification = image.classification { try Catalogue.validate(classification) }
        }
        var ids = try storedImageIDs(images.map(\.sha256))
        // The first image of each content not stored yet is new; a later one of the same is not.
        var fresh: [NewImage] = [], freshHashes: Set<SHA256Digest> = []
        for image in images where ids[image.sha256] == nil && freshHashes.insert(image.sha256).inserted {
            fresh.append(image)
        }
        for (hash, id) in try insert(fresh) { ids[hash] = id }
        var unclaimed = freshHashes
        let placed = try images.map { image -> (id: ImageID, isNew: Bool) in
            guard let id = ids[image.sha256] else {
                throw CatalogueError.notFound("image \(image.sha256.hex) is neither new nor stored in \(catalogue.path)")
            }
            return (ImageID(id), unclaimed.remove(image.sha256) != nil)
        }
        let pathIsNew = try storePaths(zip(images, placed).compactMap { image, place in
            image.file.map { (file: $0, image: place.id, isNew: place.isNew) }
        })
        var pathIsNewByImage = pathIsNew.makeIterator()
        let classifications = try store(zip(images, placed).map { image, place in
            guard let new = image.classification, place.isNew || known == .isClassifiedAgain else { return nil }
            return (place.id, new, place.isNew)
        })
        return zip(images, zip(placed, classifications)).map { image, pair in
            InsertedImage(image: pair.0.id, isNew: pair.0.isNew, classification: pair.1,
                          pathIsNew: image.file == nil ? false : pathIsNewByImage.next() ?? false)
        }
    }

    func addClassifications(_ items: [(image: ImageID, classification: NewClassification)]) throws -> [ClassificationID?] {
        for item in items { try Catalogue.validate(item.classification) }
        return try store(items.map { ($0.image, $0.classification, false) })
    }

    func recordPaths(_ files: [(file: SeenFile, sha256: SHA256Digest)]) throws -> [RecordedPath?] {
        let ids = try storedImageIDs(files.map(\.sha256))
        let found = files.compactMap { file, sha256 in ids[sha256].map { (file: file, image: ImageID($0), isNew: false) } }
        var isNew = try storePaths(found).makeIterator()
        return files.map { file, sha256 in
            ids[sha256].map { RecordedPath(image: ImageID($0), isNew: isNew.next() ?? false) }
        }
    }

    func recordFailure(path: String, reason: String, file: SeenFile?) throws {
        try catalogue.storeFailure(path: path, reason: reason, run: context.run, file: file, now: now)
    }

    /// The stored images among `hashes`, by hash: one statement.
    private func storedImageIDs(_ hashes: [SHA256Digest]) throws -> [SHA256Digest: Int64] {
        let distinct = Array(Set(hashes))
        guard !distinct.isEmpty else { return [:] }
        var parameters = PostgresParameters()
        let list = distinct.map { parameters.add($0.bytes) }.joined(separator: ", ")
        let rows = try catalogue.rows(numbered: "SELECT id, sha256 FROM images WHERE sha256 IN (\(list))", parameters) {
            (try $0.sha256("sha256"), $0.int64("id"))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Inserts `images` (new contents, each once) in one statement; their ids by hash. The write
    /// lock makes the conflict clause only a guard: an insert that meets a conflict still takes a
    /// number from the id sequence, and ids would leave gaps SQLite's do not, so contents are
    /// looked for first.
    private func insert(_ images: [NewImage]) throws -> [SHA256Digest: Int64] {
        guard !images.isEmpty else { return [:] }
        var parameters = PostgresParameters()
        let rows = images.map { image in
            "(" + image.values(importedAt: now).map { parameters.add($0) }.joined(separator: ", ") + ")"
        }
        let inserted = try catalogue.rows(numbered: """
            INSERT INTO images (\(NewImage.columnList))
            VALUES \(rows.joined(separator: ", ")) ON CONFLICT (sha256) DO NOTHING RETURNING id, sha256
            """, parameters) { (try $0.sha256("sha256"), $0.int64("id")) }
        return Dictionary(inserted, uniquingKeysWith: { first, _ in first })
    }

    /// Stores each path for its image, or refreshes its size, time and sighting (a stored name with
    /// other bytes that shows the same is left alone, as in SQLite); per path, whether it did not
    /// name its image before (always so for a new image). The stored owners are read in one
    /// statement, the paths written in one per run of distinct names.
    private func storePaths(_ entries: [(file: SeenFile, image: ImageID, isNew: Bool)]) throws -> [Bool] {
        // Looked up: the names of known images, and any name the batch holds twice.
        var occurrences: [String: Int] = [:]
        for entry in entries { occurrences[PathName.display(entry.file.path), default: 0] += 1 }
        var owners = try pathOwners(Set(entries.map { PathName.display($0.file.path) }.filter { name in
            occurrences[name, default: 0] > 1
        } + entries.filter { !$0.isNew }.map { PathName.display($0.file.path) }))
        let pathIsNew = entries.map { entry -> Bool in
            let name = PathName.display(entry.file.path), bytes = PathName.exactBytes(of: entry.file.path)
            let before = owners[name]
            if before == nil || before?.bytes == bytes { owners[name] = (entry.image, bytes) }
            return entry.isNew || before?.image != entry.image
        }
        // One statement may not upsert a row twice: a name met again starts the next statement.
        var start = entries.startIndex
        while start < entries.endIndex {
            var names: Set<String> = [], end = start
            while end < entries.endIndex, names.insert(PathName.display(entries[end].file.path)).inserted { end += 1 }
            // What every row shares is one parameter.
            var parameters = PostgresParameters()
            let shared = parameters.add(catalogue.machine) + ", " + parameters.add(now)
            let rows = entries[start..<end].map { entry in
                let values: [(any PostgresBindable)?] = [
                    PathName.display(entry.file.path), entry.image, entry.file.size,
                    entry.file.modificationTimeNanoseconds, PathName.exactBytes(of: entry.file.path)]
                return "(" + shared + ", " + values.map { parameters.add($0) }.joined(separator: ", ") + ")"
            }
            try connection.query(numbered: """
                INSERT INTO image_paths AS p (machine, last_seen, path, image_id, size, mtime_ns, path_bytes)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (machine, path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size,
                    mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen, missing = 0
                    WHERE p.path_bytes IS NOT DISTINCT FROM excluded.path_bytes
                """, parameters)
            start = end
        }
        return pathIsNew
    }

    /// The image and exact bytes each of `names` is stored with: one statement.
    private func pathOwners(_ names: Set<String>) throws -> [String: (image: ImageID, bytes: [UInt8]?)] {
        guard !names.isEmpty else { return [:] }
        var parameters = PostgresParameters()
        let here = parameters.add(catalogue.machine)
        let list = names.map { parameters.add($0) }.joined(separator: ", ")
        let rows = try catalogue.rows(numbered: "SELECT path, image_id, path_bytes FROM image_paths WHERE machine = \(here) AND path IN (\(list))",
                                      parameters) { ($0.text("path"), (ImageID($0.int64("image_id")), $0.optionalBlob("path_bytes"))) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Adds each classification (nil entries are none) unless this run classified its image already
    /// (then nil: its first classification stays; `isNew` images have none), in one statement.
    private func store(_ entries: [(image: ImageID, classification: NewClassification, isNew: Bool)?]) throws
        -> [ClassificationID?] {
        let known = entries.compactMap { $0 }.filter { !$0.isNew }.map(\.image.rawValue)
        var classified = known.isEmpty ? [] : Set(try catalogue.rows(
            "SELECT image_id FROM classifications WHERE run_id = :run AND image_id = ANY(:known)",
            [":run": context.run, ":known": PostgresValue.ids(known)]) { $0.int64("image_id") })
        // Images forgotten since the run read them (forget beside a reclassify) get nothing, as
        // on SQLite: their rows failed the foreign key, and with them the batch and the run.
        let present = known.isEmpty ? [] : Set(try catalogue.rows(
            "SELECT id FROM images WHERE id = ANY(:known)", [":known": PostgresValue.ids(known)]) { $0.int64("id") })
        let gone = Set(known).subtracting(present)
        classified.formUnion(gone)
        // What every row shares is one parameter.
        var parameters = PostgresParameters()
        let shared = [parameters.add(context.run), parameters.add(context.model), parameters.add(context.recipe.name),
                      parameters.add(context.recipe.version), parameters.add(now)].joined(separator: ", ")
        var rows: [String] = []
        for entry in entries.compactMap({ $0 }) where classified.insert(entry.image.rawValue).inserted {
            let values: [(any PostgresBindable)?] = [
                entry.image, Catalogue.littleEndianBytes(entry.classification.logits), entry.classification.label,
                entry.classification.confidence]
            rows.append("(" + shared + ", " + values.map { parameters.add($0) }.joined(separator: ", ") + ")")
        }
        var ids: [Int64: Int64] = [:]
        if !rows.isEmpty {
            // The lookup above makes the conflict clause only a guard, as for images.
            let inserted = try catalogue.rows(numbered: """
                INSERT INTO classifications
                    (run_id, model_id, recipe_name, recipe_version, classified_at, image_id, logits, label, confidence)
                VALUES \(rows.joined(separator: ", ")) ON CONFLICT (image_id, run_id) DO NOTHING RETURNING id, image_id
                """, parameters) { ($0.int64("image_id"), $0.int64("id")) }
            ids = Dictionary(inserted, uniquingKeysWith: { first, _ in first })
        }
        try keepTensors(entries.compactMap { entry in
            entry.flatMap { entry in
                gone.contains(entry.image.rawValue) ? nil : entry.classification.preparedTensor.map { (entry.image, $0) }
            }
        })
        // Only the first entry of an image gets its id; a later one of the same image is nil.
        var given: Set<Int64> = []
        return entries.map { entry in
            guard let entry, let id = ids[entry.image.rawValue], given.insert(entry.image.rawValue).inserted else { return nil }
            return ClassificationID(id)
        }
    }

    /// Keeps each image's tensor under the run's recipe, replacing one kept before (see
    /// `Catalogue.InsertSQL.preparedTensor`), in one statement; an image given twice keeps the last.
    private func keepTensors(_ tensors: [(image: ImageID, values: [Float])]) throws {
        var last: [ImageID: [Float]] = [:], order: [ImageID] = []
        for (image, values) in tensors {
            if last.updateValue(values, forKey: image) == nil { order.append(image) }
        }
        guard !order.isEmpty else { return }
        var parameters = PostgresParameters()
        let shared = parameters.add(context.recipe.name) + ", " + parameters.add(context.recipe.version)
        let rows = order.map { image in
            "(" + shared + ", " + parameters.add(image) + ", " + parameters.add(Catalogue.littleEndianBytes(last[image]!)) + ")"
        }
        _ = try connection.query(numbered: """
            INSERT INTO prepared_tensors (recipe_name, recipe_version, image_id, tensor)
            VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (image_id, recipe_name, recipe_version) DO UPDATE SET tensor = excluded.tensor
            """, parameters)
    }
}
