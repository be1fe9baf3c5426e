import Foundation
import Testing

/// An image named by a path whose file holds another photo since it was imported (edited in
/// place, replaced, not imported again): `label trouser photos/0.jpg` gave the label to the
/// image the catalogue recorded there, a photo the person no longer sees, which a fine-tune
/// would then learn under the wrong label. Such a path is refused, naming the image it held;
/// a file only touched (its time changed, its content the same) still names its image.
@Suite struct ChangedFileReferenceTests {
    @Test func aPathWhoseFileHoldsAnotherPhotoIsRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(2, width: 120, height: 160, firstSeed: 31)
        let db = folder.path("c.sqlite"), first = folder.path("photos/0.jpg"), second = folder.path("photos/1.jpg")
        #expect(try WardrobeProcess.run(["import", "-q", "--db", db, folder.path("photos")]).status == 0)
        let shown = try WardrobeProcess.run(["show", "--db", db, "--json", first])
        let image = try #require((try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["id"] as? Int,
                                 "\(shown.stdout)")

        // Touched only: the same content, so the same image.
        let touched = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: touched], ofItemAtPath: second)
        let same = try WardrobeProcess.run(["label", "--db", db, "coat", second])
        #expect(same.status == 0, "\(same.stderr)")

        // Replaced by another photo's bytes, not imported again.
        try FileManager.default.removeItem(atPath: first)
        try folder.writePhotos(1, width: 120, height: 160, firstSeed: 77, to: "other")
        try FileManager.default.copyItem(atPath: folder.path("other/0.jpg"), toPath: first)
        for command in [["label", "trouser"], ["colour", "navy"], ["show"], ["history"], ["forget", "--yes"]] {
            let result = try WardrobeProcess.run([command[0], "--db", db] + command.dropFirst() + [first])
            #expect(result.status != 0, "\(command): \(result.stdout)")
            #expect(result.stderr.contains("\(first): the file holds another photo than the one imported from there (image \(image))"),
                    "\(command): \(result.stderr)")
        }
        let history = try WardrobeProcess.run(["history", "--db", db, String(image)])
        #expect(!history.stdout.contains("Trouser") && !history.stdout.contains("navy"), "nothing written: \(history.stdout)")
        #expect(try WardrobeProcess.run(["show", "--db", db, "--no-preview", String(image)]).status == 0, "the image itself stays")
    }
}
