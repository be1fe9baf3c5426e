import Files
import CSQLite
import Foundation

extension Catalogue {
    /// Adds a batch of images in one transaction: each image (or, for a hash
    /// already stored, the existing one), the path it was seen at, and its
    /// classification by `run` (for stored content only as `known` says).
    /// Whether content is new is decided inside the transaction, so two
    /// processes storing the same content at once classify it once. Either the
    /// whole batch is stored or, on any error, none of it.
    @discardableResult
    public func insertImages(_ images: [NewImage], run: RunID, known: KnownContent = .isClassifiedAgain,
                             at date: Date = Date()) throws -> [InsertedImage] {
        for image in images {
            if let classification = image.classification { try Catalogue.validate(classification) }
        }
        return try database.transaction {
            try storeImages(images, context: try runContext(run), known: known, now: date.catalogueMilliseconds)
        }
    }

    /// Adds classifications of stored images by `run` (a reclassification),
    /// in one transaction. An image already classified by this run keeps its
    /// first classification; its entry in the result is nil.
    @discardableResult
    public func addClassifications(_ items: [(image: ImageID, classification: NewClassification)],
                                   run: RunID, at date: Date = Date()) throws -> [ClassificationID?] {
        for item in items { try Catalogue.validate(item.classification) }
        return try database.transaction {
            try storeClassifications(items, context: try runContext(run), now: date.catalogueMilliseconds)
        }
    }

    // MARK: - Inside a transaction

    /// `insertImages` inside the caller's transaction (classifications validated).
    func storeImages(_ images: [NewImage], context: RunContext, known: KnownContent,
                     now: Int64) throws -> [InsertedImage] {
        // Looked up once per batch, not once per row: finding a cached
        // statement hashes its SQL text.
        let insertImage = try database.cachedStatement(NewImage.insertSQL)
        let insertPath = try database.cachedStatement(InsertSQL.path)
        let insertClassification = try database.cachedStatement(InsertSQL.classification)
        var inserted: [InsertedImage] = []
        inserted.reserveCapacity(images.count)
        for image in images {
            try image.bind(to: insertImage, importedAt: now)
            try insertImage.perform()
            let id: ImageID
            let isNew = database.changes == 1
            if isNew {
                id = ImageID(database.lastInsertedRowID)
            } else {
                id = try existingImage(image.sha256)
            }
            var pathIsNew = false
            if let file = image.file {
                // A new image's path is new to it; only a known image's needs the look.
                pathIsNew = try isNew || !path(file, names: id)
                try storePath(file, of: id, now: now, with: insertPath)
            }
            var classification: ClassificationID?
            if let new = image.classification, isNew || known == .isClassifiedAgain {
                classification = try storeClassification(new, of: id, context: context, now: now,
                                                         with: insertClassification)
            }
            inserted.append(InsertedImage(image: id, isNew: isNew, classification: classification, pathIsNew: pathIsNew))
        }
        return inserted
    }

    /// `addClassifications` inside the caller's transaction (classifications validated).
    func storeClassifications(_ items: [(image: ImageID, classification: NewClassification)],
                              context: RunContext, now: Int64) throws -> [ClassificationID?] {
        let statement = try database.cachedStatement(InsertSQL.classification)
        return try items.map {
            try storeClassification($0.classification, of: $0.image, context: context, now: now, with: statement)
        }
    }

    /// Records, inside the caller's transaction, that each file holds content already stored,
    /// found by its hash. An entry of the result is the image the path now names and whether
    /// the path is new to it, or nil when no image has that hash (nothing is stored for that file).
    func storePaths(_ files: [(file: SeenFile, sha256: SHA256Digest)], now: Int64) throws -> [RecordedPath?] {
        let insertPath = try database.cachedStatement(InsertSQL.path)
        return try files.map { file, sha256 in
            guard let id = try database.scalarInt("SELECT id FROM images WHERE sha256 = :sha256", [":sha256": sha256.bytes]) else {
                return nil
            }
            let isNew = try !path(file, names: ImageID(id))
            try storePath(file, of: ImageID(id), now: now, with: insertPath)
            return RecordedPath(image: ImageID(id), isNew: isNew)
        }
    }

    struct RunContext {
        let run: RunID
        let model: ModelID
        let recipe: Recipe
    }

    func runContext(_ run: RunID) throws -> RunContext {
        let statement = try database.cachedStatement(
            "SELECT model_id, recipe_name, recipe_version FROM runs WHERE id = :run")
        defer { statement.reset() }
        try statement.bind(run, to: ":run")
        guard try statement.step() else { throw CatalogueError.notFound("no run with id \(run) in \(path)") }
        return RunContext(run: run, model: ModelID(statement.int64("model_id")),
                          recipe: Recipe(name: statement.text("recipe_name"), version: statement.int("recipe_version")))
    }

    private func existingImage(_ hash: SHA256Digest) throws -> ImageID {
        guard let id = try database.scalarInt("SELECT id FROM images WHERE sha256 = :sha256", [":sha256": hash.bytes]) else {
            throw CatalogueError.notFound("image \(hash.hex) is neither new nor stored in \(path)")
        }
        return ImageID(id)
    }

    /// The statements that add a path and a classification (an image's is `NewImage.insertSQL`).
    enum InsertSQL {
        static let path = """
            INSERT INTO image_paths (machine, path, image_id, size, mtime_ns, last_seen, path_bytes)
            VALUES (:machine, :path, :image_id, :size, :mtime_ns, :last_seen, :path_bytes)
            ON CONFLICT (machine, path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size,
                mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen, missing = 0
                WHERE path_bytes IS excluded.path_bytes
            """
        static let imageExists = "SELECT 1 FROM images WHERE id = :image_id"
        static let classification = """
            INSERT INTO classifications
                (image_id, run_id, model_id, recipe_name, recipe_version, logits, label, confidence, classified_at)
            VALUES (:image_id, :run_id, :model_id, :recipe_name, :recipe_version, :logits, :label, :confidence,
                    :classified_at)
            ON CONFLICT (image_id, run_id) DO NOTHING
            """
        /// A tensor prepared again replaces the kept one: it is kept again only where the
        /// kept one was missing or could not be used.
        static let preparedTensor = """
            INSERT INTO prepared_tensors (image_id, recipe_name, recipe_version, tensor)
            VALUES (:image_id, :recipe_name, :recipe_version, :tensor)
            ON CONFLICT (image_id, recipe_name, recipe_version) DO UPDATE SET tensor = excluded.tensor
            """
    }

    /// Whether the stored path of `file` names `image` now (asked before `storePath`).
    private func path(_ file: SeenFile, names image: ImageID) throws -> Bool {
        try database.scalarInt("SELECT image_id FROM image_paths WHERE machine = :machine AND path = :path",
                               [":machine": machine, ":path": PathName.display(file.path)]) == image.rawValue
    }

    /// Stores the path of `image`, or refreshes its size, time and sighting.
    private func storePath(_ file: SeenFile, of image: ImageID, now: Int64, with statement: Statement) throws {
        try statement.bind(machine, to: ":machine")
        try statement.bind(PathName.display(file.path), to: ":path")
        try statement.bind(image, to: ":image_id")
        try statement.bind(file.size, to: ":size")
        try statement.bind(file.modificationTimeNanoseconds, to: ":mtime_ns")
        try statement.bind(now, to: ":last_seen")
        try statement.bind(PathName.exactBytes(of: file.path), to: ":path_bytes")
        try statement.perform()
    }

    private func storeClassification(_ classification: NewClassification, of image: ImageID,
                                     context: RunContext, now: Int64,
                                     with statement: Statement) throws -> ClassificationID? {
        // An image forgotten since the run read it (forget beside a reclassify) gets nothing:
        // its row failed the foreign key, and with it the whole batch and the run.
        guard try database.scalarInt(InsertSQL.imageExists, [":image_id": image]) != nil else { return nil }
        try statement.bind(image, to: ":image_id")
        try statement.bind(context.run, to: ":run_id")
        try statement.bind(context.model, to: ":model_id")
        try statement.bind(context.recipe.name, to: ":recipe_name")
        try statement.bind(context.recipe.version, to: ":recipe_version")
        try statement.bind(LittleEndianFloats(values: classification.logits), to: ":logits")
        try statement.bind(classification.label, to: ":label")
        try statement.bind(classification.confidence, to: ":confidence")
        try statement.bind(now, to: ":classified_at")
        try statement.perform()
        let id = database.changes == 1 ? ClassificationID(database.lastInsertedRowID) : nil
        if let tensor = classification.preparedTensor {
            let keep = try database.cachedStatement(InsertSQL.preparedTensor)
            try keep.bind(image, to: ":image_id")
            try keep.bind(context.recipe.name, to: ":recipe_name")
            try keep.bind(context.recipe.version, to: ":recipe_version")
            try keep.bind(LittleEndianFloats(values: tensor), to: ":tensor")
            try keep.perform()
        }
        return id
    }

    static func validate(_ classification: NewClassification) throws {
        guard classification.logits.count == labelCount else {
            throw CatalogueError.invalidArgument("a classification has \(labelCount) logits, got \(classification.logits.count)")
        }
        guard (0..<labelCount).contains(classification.label) else {
            throw CatalogueError.invalidArgument("label index \(classification.label) is not in 0...\(labelCount - 1)")
        }
        guard (0...1).contains(classification.confidence) else {
            throw CatalogueError.invalidArgument("confidence \(classification.confidence) is not in 0...1")
        }
        if let tensor = classification.preparedTensor, tensor.count != tensorValueCount {
            throw CatalogueError.invalidArgument("a prepared tensor has \(tensorValueCount) values, got \(tensor.count)")
        }
    }

    static func littleEndianBytes(_ values: [Float]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * 4)
        for (index, value) in values.enumerated() {
            let bits = value.bitPattern
            bytes[index * 4] = UInt8(truncatingIfNeeded: bits)
            bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: bits >> 16)
            bytes[index * 4 + 3] = UInt8(truncatingIfNeeded: bits >> 24)
        }
        return bytes
    }

    /// Logits bound as a blob of little-endian float32 without an extra copy
    /// on little-endian machines (all the ones Swift on Linux runs on today).
    struct LittleEndianFloats: SQLBindable {
        let values: [Float]

        func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
            #if _endian(little)
            return values.withUnsafeBytes {
                sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
            #else
            return Catalogue.littleEndianBytes(values).bind(to: statement, at: index)
            #endif
        }
    }

    static func floats(littleEndian bytes: UnsafeRawBufferPointer) -> [Float] {
        #if _endian(little)
        // A prepared tensor is 784 of them: one copy, not 784 assemblies.
        return [Float](unsafeUninitializedCapacity: bytes.count / 4) { buffer, count in
            count = bytes.count / 4
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count * 4]))
        }
        #else
        return (0..<bytes.count / 4).map { index in
            let bits = UInt32(bytes[index * 4]) | UInt32(bytes[index * 4 + 1]) << 8
                | UInt32(bytes[index * 4 + 2]) << 16 | UInt32(bytes[index * 4 + 3]) << 24
            return Float(bitPattern: bits)
        }
        #endif
    }
}
