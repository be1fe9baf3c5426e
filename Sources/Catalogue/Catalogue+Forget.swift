import Foundation

/// What `forget` removed, and whether the removed bytes are gone from the files.
public struct ForgetReport: Sendable, Equatable {
    public var images = 0
    public var paths = 0
    public var classifications = 0
    /// A person's label acts (`corrections`).
    public var corrections = 0
    /// A person's colour acts (`colour_corrections`), counted apart from the labels.
    public var colourCorrections = 0
    /// False when another connection kept the write-ahead log from being
    /// emptied: the deleted bytes stay in the `-wal` file until it is.
    public var logEmptied = true
    /// What the engine keeps of removed rows that `forget` cannot take away itself, and what
    /// does (PostgreSQL: VACUUM); nil when nothing is kept.
    public var serverNote: String?
}

extension Catalogue {
    /// Removes images for good: their paths, thumbnails, prepared tensors, classifications and
    /// corrections (of labels and colours), in one transaction. The one operation that deletes
    /// history. Because it exists for privacy, freed space is overwritten
    /// (`secure_delete`) and the write-ahead log, which still holds the old
    /// pages, is checkpointed into the file and truncated afterwards.
    public func forget(_ images: [ImageID]) throws -> ForgetReport {
        var report = ForgetReport()
        try database.executeScript("PRAGMA secure_delete = ON")
        defer { try? database.executeScript("PRAGMA secure_delete = OFF") }
        try database.transaction {
            for image in images {
                guard try database.scalarInt("SELECT 1 FROM images WHERE id = :image", [":image": image]) != nil else {
                    throw CatalogueError.notFound("no image with id \(image) in \(path)")
                }
                // Lifts the rule that classifications are never deleted, for this image only.
                try database.execute("INSERT INTO images_being_forgotten (image_id) VALUES (:image)", [":image": image])
                try database.execute("DELETE FROM current_classifications WHERE image_id = :image", [":image": image])
                try database.execute("DELETE FROM corrections WHERE image_id = :image", [":image": image])
                report.corrections += database.changes
                try database.execute("DELETE FROM colour_corrections WHERE image_id = :image", [":image": image])
                report.colourCorrections += database.changes
                try database.execute("DELETE FROM dismissed_duplicates WHERE image_id = :image OR other_image_id = :image",
                                     [":image": image])
                try database.execute("DELETE FROM prepared_tensors WHERE image_id = :image", [":image": image])
                try database.execute("DELETE FROM classifications WHERE image_id = :image", [":image": image])
                report.classifications += database.changes
                try database.execute("DELETE FROM image_paths WHERE image_id = :image", [":image": image])
                report.paths += database.changes
                try database.execute("DELETE FROM images WHERE id = :image", [":image": image])
                report.images += database.changes
                try database.execute("DELETE FROM images_being_forgotten WHERE image_id = :image", [":image": image])
            }
        }
        report.logEmptied = try checkpoint()
        return report
    }

    /// As `CatalogueStore.finishForgetting`: the checkpoint `forget` ends with. Its removed
    /// pages, overwritten by `secure_delete`, wait in the write-ahead log while the file holds
    /// their old bytes until a checkpoint copies them over.
    @discardableResult
    public func finishForgetting() throws -> Bool { try checkpoint() }

    /// Copies the write-ahead log into the file and truncates it. False when
    /// another connection's reading kept some of it in place.
    @discardableResult
    public func checkpoint() throws -> Bool {
        let result = try database.rows("PRAGMA wal_checkpoint(TRUNCATE)") { ($0.int("busy"), $0.int("log"), $0.int("checkpointed")) }
        guard let (busy, logFrames, _) = result.first else { return true }
        return busy == 0 && logFrames <= 0
    }
}
