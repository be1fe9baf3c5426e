import Foundation
import Imaging
import Testing

/// What people type on the command line and pipe into it, read as they meant it: shell
/// patterns as a shell reads them, ids and hash prefixes without guessing, lines of a list
/// that are paths, and names of the files the tool opens or writes itself, through the
/// built binary on catalogues `wardrobe import` made from real PNG files.
@Suite(.serialized) struct ArgumentTextTests {
    /// The paths `list --path PATTERN` chooses, by file name.
    private func chosen(_ db: String, _ pattern: String) throws -> Set<String> {
        let listed = try WardrobeProcess.run(["list", "--db", db, "--json", "--path", pattern])
        #expect(listed.status == 0, "\(pattern): \(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(rows.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
    }

    @Test func pathPatternsChooseWhatAShellWould() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let names = ["coat1.png", "coat[2024].png", "star*.png", "shirt.png", "b!.png"]
        for (index, name) in names.enumerated() {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/" + name)
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")

        // A shell's negated set: every name whose last character before .png is no digit.
        // GLOB read [!0-9] as a set of !, 0...9: only coat1.png and b!.png, the opposite.
        #expect(try chosen(db, "*[!0-9].png") == ["coat[2024].png", "star*.png", "shirt.png", "b!.png"])
        #expect(try chosen(db, "*[^0-9].png") == ["coat[2024].png", "star*.png", "shirt.png", "b!.png"])
        // Backslash makes a wildcard itself (GLOB knew no backslash: none was chosen).
        #expect(try chosen(db, "*\\[2024\\]*") == ["coat[2024].png"])
        #expect(try chosen(db, "*/star\\*.png") == ["star*.png"])
        // A [ no ] closes is itself: text found anywhere in the path (GLOB: nothing).
        #expect(try chosen(db, "coat[20") == ["coat[2024].png"])
        #expect(try chosen(db, "[") == ["coat[2024].png"])
        // What a shell and GLOB read alike stays as it was.
        #expect(try chosen(db, "*/coat*") == ["coat1.png", "coat[2024].png"])
        #expect(try chosen(db, "*[0-9].png") == ["coat1.png"])
        #expect(try chosen(db, "shirt") == ["shirt.png"])
    }
}
