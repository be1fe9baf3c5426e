import Foundation

extension Catalogue {
    /// Totals, and per current label the image count and mean confidence.
    public func stats() throws -> CatalogueStats {
        try read {
            func count(_ table: String) throws -> Int {
                Int(try database.scalarInt("SELECT count(*) FROM \(table)") ?? 0)
            }
            let labels = try database.rows("""
                SELECT label, count(*), avg(confidence) FROM current_classifications GROUP BY label ORDER BY label
                """) { CatalogueStats.LabelStats(label: $0.int(0), count: $0.int(1), meanConfidence: $0.double(2)) }
            return CatalogueStats(
                images: try count("images"), paths: try count("image_paths"),
                classifications: try count("classifications"), failures: try count("import_failures"),
                models: try count("models"), runs: try count("runs"), corrections: try count("corrections"),
                labels: labels)
        }
    }

    /// What changed between two runs over the images both classified:
    /// every (before, after) label pair with its count, and the changed
    /// images themselves (the first `changeLimit`, in image order).
    public func compareRuns(_ before: RunID, _ after: RunID, changeLimit: Int? = nil) throws -> RunComparison {
        try read {
            for run in [before, after] where try self.run(run) == nil {
                throw CatalogueError.notFound("no run with id \(run) in \(path)")
            }
            let pairs = """
                FROM classifications AS a
                JOIN classifications AS b ON b.image_id = a.image_id AND b.run_id = ?
                WHERE a.run_id = ?
                """
            let transitions = try database.rows("""
                SELECT a.label, b.label, count(*) \(pairs) GROUP BY a.label, b.label ORDER BY count(*) DESC, a.label, b.label
                """, [after, before]) { RunComparison.Transition(from: $0.int(0), to: $0.int(1), count: $0.int(2)) }
            let changes = try database.rows("""
                SELECT a.image_id, a.label, b.label, b.confidence \(pairs) AND a.label != b.label
                ORDER BY a.image_id LIMIT ?
                """, [after, before, changeLimit ?? -1]) {
                RunComparison.Change(image: ImageID($0.int64(0)), before: $0.int(1), after: $0.int(2),
                                     confidenceAfter: $0.double(3))
            }
            return RunComparison(before: before, after: after, compared: transitions.reduce(0) { $0 + $1.count },
                                 changes: changes, transitions: transitions)
        }
    }

    // MARK: - Failures

    /// Records a file that could not be imported.
    public func recordFailure(path: String, reason: String, run: RunID? = nil, at date: Date = Date()) throws {
        try database.execute(
            "INSERT INTO import_failures (path, reason, run_id, failed_at) VALUES (?, ?, ?, ?)",
            path, reason, run, date.catalogueMilliseconds)
    }

    /// Recorded failures, newest first, optionally of one run only.
    public func failures(run: RunID? = nil, limit: Int? = nil) throws -> [ImportFailure] {
        try database.rows("""
            SELECT id, path, reason, run_id, failed_at FROM import_failures
            WHERE ?1 IS NULL OR run_id = ?1 ORDER BY id DESC LIMIT ?2
            """, [run, limit ?? -1]) { row in
            ImportFailure(id: row.int64(0), path: row.text(1), reason: row.text(2),
                          run: row.isNull(3) ? nil : RunID(row.int64(3)),
                          failedAt: Date(catalogueMilliseconds: row.int64(4)))
        }
    }

    // MARK: - Corrections

    /// Sets a person's label for an image. Runs never overwrite it; a later
    /// correction replaces it (earlier ones stay in `corrections(of:)`).
    public func setCorrection(of image: ImageID, label: Int, at date: Date = Date()) throws {
        guard (0..<Catalogue.labelCount).contains(label) else {
            throw CatalogueError.invalidArgument("label index \(label) is not in 0...\(Catalogue.labelCount - 1)")
        }
        try database.transaction {
            guard try database.scalarInt("SELECT 1 FROM images WHERE id = ?", image) != nil else {
                throw CatalogueError.notFound("no image with id \(image) in \(path)")
            }
            try database.execute("INSERT INTO corrections (image_id, label, corrected_at) VALUES (?, ?, ?)",
                                 image, label, date.catalogueMilliseconds)
        }
    }

    /// The image's current correction, if any.
    public func correction(of image: ImageID) throws -> Correction? {
        try corrections(of: image).last
    }

    /// Every correction of one image, oldest first.
    public func corrections(of image: ImageID) throws -> [Correction] {
        try database.rows("""
            SELECT image_id, label, corrected_at FROM corrections WHERE image_id = ? ORDER BY id
            """, [image], Catalogue.correction)
    }

    /// The current correction of every corrected image, in image order.
    public func corrections() throws -> [Correction] {
        try database.rows("""
            SELECT image_id, label, corrected_at FROM corrections AS c
            WHERE id = (SELECT max(id) FROM corrections WHERE image_id = c.image_id)
            ORDER BY image_id
            """, [], Catalogue.correction)
    }

    static func correction(_ row: Statement) -> Correction {
        Correction(image: ImageID(row.int64(0)), label: row.int(1), correctedAt: Date(catalogueMilliseconds: row.int64(2)))
    }
}
