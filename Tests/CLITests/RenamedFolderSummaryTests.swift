import Foundation
import Testing

/// A folder renamed after its import, imported again from above: what the summaries say.
/// The dry run said only what it would read, not that the old paths would be marked missing;
/// the import's rate said "images/s" of files that were all known images under new names
/// ("Imported 2135 of 2135 files ... (12927.4 images/s)" with no image new).
@Suite struct RenamedFolderSummaryTests {
    @Test func theDryRunAndTheRateSayWhatTheImportDoes() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(3, width: 120, height: 160, firstSeed: 11, to: "album/photos")
        let db = folder.path("c.sqlite"), album = folder.path("album")
        #expect(try WardrobeProcess.run(["import", "-q", "--db", db, album]).status == 0)
        try FileManager.default.moveItem(atPath: folder.path("album/photos"), toPath: folder.path("album/renamed"))

        let dry = try WardrobeProcess.run(["import", "--dry-run", "--db", db, album])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("dry run: 3 files would be read, 0 unchanged would be skipped, "
                                    + "3 known paths gone would be marked missing"), "\(dry.stderr)")
        let dryJSON = try WardrobeProcess.run(["import", "--dry-run", "--json", "--db", db, album])
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(dryJSON.stdout.utf8)) as? [String: Any])
        #expect((plan["wouldMarkMissing"] as? [String])?.count == 3, "\(dryJSON.stdout)")

        let imported = try WardrobeProcess.run(["import", "--db", db, album])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 3 of 3 files") && imported.stdout.contains(" files/s)"), "\(imported.stdout)")
        #expect(!imported.stdout.contains("images/s"), "\(imported.stdout)")
        #expect(imported.stdout.contains("missing     3"), "\(imported.stdout)")
    }
}
