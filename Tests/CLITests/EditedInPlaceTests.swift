import Foundation
import Testing

/// A photo edited in place (a tool writing tags into it) or replaced by another under its
/// name: the import stores the new content as a new image and moves the path to it, and the
/// image the path held keeps its history and a person's label with no file left. The summary
/// said only "new images 1", as of a new photo; it now counts such files, so a label left
/// behind on the earlier image can be looked for (`list --missing`).
@Suite struct EditedInPlaceTests {
    @Test func aKnownFileHoldingAnotherPhotoIsCounted() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 120, height: 160, firstSeed: 51)
        let db = folder.path("c.sqlite"), photos = folder.path("photos"), edited = folder.path("photos/0.jpg")
        #expect(try WardrobeProcess.run(["import", "-q", "--db", db, photos]).status == 0)
        #expect(try WardrobeProcess.run(["label", "--db", db, "coat", edited]).status == 0)
        try folder.writePhotos(1, width: 120, height: 160, firstSeed: 90, to: "other")
        try FileManager.default.removeItem(atPath: edited)
        try FileManager.default.copyItem(atPath: folder.path("other/0.jpg"), toPath: edited)

        let imported = try WardrobeProcess.run(["import", "--db", db, photos])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  replaced    1  known files that hold another photo now; "
                                         + "the photo each held keeps its history and labels, without this path"), "\(imported.stdout)")
        let again = try WardrobeProcess.run(["import", "--json", "--db", db, photos])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["replaced"] as? Int == 0, "\(again.stdout)")
        // Replaced by a photo the catalogue holds under another name: counted too.
        try FileManager.default.removeItem(atPath: edited)
        try FileManager.default.copyItem(atPath: folder.path("photos/1.jpg"), toPath: edited)
        let copied = try WardrobeProcess.run(["import", "--json", "--db", db, photos])
        let copiedSummary = try #require(try JSONSerialization.jsonObject(with: Data(copied.stdout.utf8)) as? [String: Any])
        #expect(copiedSummary["replaced"] as? Int == 1, "\(copied.stdout)")
    }
}
