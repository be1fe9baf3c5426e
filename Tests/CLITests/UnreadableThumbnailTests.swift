import Catalogue
import Foundation
import Testing

/// The re-runs that work from stored thumbnails alone (`colours`, `fingerprints`) met thumbnails
/// they could not decode (emptied, or replaced by text, by another program) and only counted
/// them: 'unreadable 2', exit 0, and no way to tell which images to look at. Each is now named
/// on stderr with why, as `reclassify` names its own, the rest are measured, and the exit status
/// is 2.
@Suite struct UnreadableThumbnailTests {
    @Test(arguments: [("colours", "measured"), ("fingerprints", "taken")])
    func eachThumbnailThatCannotBeDecodedIsNamed(command: String, done: String) throws {
        let folder = try ColourCommandTests.folder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        try Catalogue(path: db).database.executeScript("""
            UPDATE images SET colour = NULL, colours = NULL, fingerprint = NULL, garment_fingerprint = NULL;
            UPDATE images SET thumbnail = x'' WHERE id = 1;
            UPDATE images SET thumbnail = CAST('a note, not a picture' AS BLOB) WHERE id = 3;
            """)
        let result = try WardrobeProcess.run([command, "--db", db, "--json"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.split(separator: "\n") == [
            "error: image 1: stored thumbnail: empty file (0 bytes)",
            "error: image 3: stored thumbnail: not an image: content is not JPEG, PNG, HEIF, AVIF or WebP",
        ], "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report[done] as? Int == 2 && report["unreadable"] as? Int == 2, "\(result.stdout)")
        let table = try WardrobeProcess.run([command, "--db", db])
        #expect(table.status == 2 && table.stderr.split(separator: "\n").count == 2, "\(table.stdout)\(table.stderr)")
    }
}
