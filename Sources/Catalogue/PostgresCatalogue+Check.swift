import Foundation

/// `wardrobe check` on PostgreSQL: the values wardrobe never stores that the
/// schema's CHECKs do not already keep out (they hold on every connection
/// here, where SQLite's may be switched off), kept counts that are not the
/// rows', and kept model copies that are not their model. Pages are the server's to check (`pg_amcheck`), as
/// README says.
extension PostgresCatalogue {
    /// In one snapshot, as SQLite's check reads (`Database.strangeValues`).
    func strangeValues(digest: ([UInt8]) -> [UInt8]) throws -> [String] {
        try read { try strangeValuesInSnapshot(digest: digest) }
    }

    private func strangeValuesInSnapshot(digest: ([UInt8]) -> [UInt8]) throws -> [String] {
        var lines = try Self.strangeValueChecks.compactMap { what, sql in
            let count = try connection.scalarInt(sql) ?? 0
            return count == 0 ? nil : "\(what): \(count) \(count == 1 ? "row" : "rows") (changed by another program)"
        }
        if let line = try StoredColours.checkLine({ sql in try rows(sql) { $0.text("colours") } }) { lines.append(line) }
        if let line = try KeptCounts.check({ try (keptCounts(), recountedCounts()) }) { lines.append(line) }
        let copies = try rows("""
            SELECT a.file, m.sha256 FROM model_adoptions a JOIN models m ON m.id = a.model_id WHERE a.file IS NOT NULL
            """) { (file: $0.blob("file"), sha256: $0.blob("sha256")) }
        let changed = copies.filter { digest($0.file) != $0.sha256 }.count
        if changed > 0 {
            lines.append("model adoptions whose kept copy of the model file is not that model: \(changed) "
                         + "\(changed == 1 ? "row" : "rows") (changed by another program)")
        }
        return lines
    }

    private static func time(_ column: String) -> String {
        "(\(column) NOT BETWEEN \(Statement.storedTimes.lowerBound) AND \(Statement.storedTimes.upperBound))"
    }

    /// A little-endian float32 whose exponent bits are all ones: byte 3 is 7F or FF, byte 2 at least 80.
    private static let nonFiniteLogit = "(" + (0..<10).map { index in
        "(get_byte(logits, \(index * 4 + 3)) & 127 = 127 AND get_byte(logits, \(index * 4 + 2)) >= 128)"
    }.joined(separator: " OR ") + ")"

    static let strangeValueChecks: [(String, String)] = [
        ("classifications with a logit that is not a finite number",
         "SELECT count(*) FROM classifications WHERE \(nonFiniteLogit)"),
        ("classifications with a time outside the years 1 to 9999",
         "SELECT count(*) FROM classifications WHERE \(time("classified_at"))"),
        ("current classifications with a label outside 0 to 9",
         "SELECT count(*) FROM current_classifications WHERE label NOT BETWEEN 0 AND 9"),
        ("current classifications with a person's label outside 0 to 10",
         "SELECT count(*) FROM current_classifications WHERE corrected_label NOT BETWEEN 0 AND 10"),
        ("current classifications with a confidence outside 0 to 1",
         "SELECT count(*) FROM current_classifications WHERE NOT (confidence BETWEEN 0 AND 1)"),
        ("current classifications with a time outside the years 1 to 9999",
         "SELECT count(*) FROM current_classifications WHERE \(time("classified_at"))"),
        ("corrections with a time outside the years 1 to 9999",
         "SELECT count(*) FROM corrections WHERE \(time("corrected_at"))"),
        ("colour corrections with a time outside the years 1 to 9999",
         "SELECT count(*) FROM colour_corrections WHERE \(time("corrected_at"))"),
        ("images with a time outside the years 1 to 9999",
         "SELECT count(*) FROM images WHERE \(time("first_imported")) OR (taken_at IS NOT NULL AND \(time("taken_at")))"),
        ("images with a capture time's offset past 14:59 hours",
         "SELECT count(*) FROM images WHERE taken_offset NOT BETWEEN \(TakenTime.offsets.lowerBound) AND \(TakenTime.offsets.upperBound)"),
        ("paths with a time outside the years 1 to 9999",
         "SELECT count(*) FROM image_paths WHERE \(time("last_seen")) OR \(time("checked_at"))"),
        ("models with a time outside the years 1 to 9999",
         "SELECT count(*) FROM models WHERE \(time("registered_at"))"),
        ("runs with a time outside the years 1 to 9999",
         "SELECT count(*) FROM runs WHERE \(time("started_at")) OR \(time("finished_at"))"),
        ("model adoptions with a time outside the years 1 to 9999",
         "SELECT count(*) FROM model_adoptions WHERE \(time("adopted_at"))"),
        ("import failures with a time outside the years 1 to 9999",
         "SELECT count(*) FROM import_failures WHERE \(time("failed_at"))"),
        ("failing files with a time outside the years 1 to 9999",
         "SELECT count(*) FROM failing_files WHERE \(time("first_failed")) OR \(time("last_failed"))"),
    ]
}
