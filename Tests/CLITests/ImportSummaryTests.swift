import Foundation
import Imaging
import Testing

/// The import summary's first line says how many files were imported, how many the
/// catalogue already held and how many failed. It said "Imported 4 files" of every file
/// found, the failed and the unchanged among them; and a file whose time changed but not
/// its content was counted as a new path ("known content under another name or place").
@Suite(.serialized) struct ImportSummaryTests {
    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theFirstLineCountsImportedAlreadyThereAndFailedApart() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        try folder.write(Array("not a photo".utf8), to: "photos/junk.jpg")
        let db = folder.path("c.sqlite")
        let run = { (extra: [String]) in
            try WardrobeProcess.run(["import", "--db", db, "--jobs", "1", "--prep", "fashion-mnist"] + extra + [folder.path("photos")])
        }

        let first = try run([])
        #expect(first.status == 2)
        #expect(firstLine(first.stdout).hasPrefix("Imported 3 of 4 files into "), "\(first.stdout)")
        #expect(firstLine(first.stdout).hasSuffix(": 0 already there, 1 failed"), "\(first.stdout)")

        // A file whose time changes but not its content is already there, not a new path.
        let later = Date().addingTimeInterval(60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: folder.path("photos/1.png"))
        let again = try run([])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(firstLine(again.stdout).hasPrefix("Imported 0 of 4 files into "), "\(again.stdout)")
        #expect(firstLine(again.stdout).hasSuffix(": 3 already there, 0 failed, 1 known failure skipped"), "\(again.stdout)")
        #expect(!again.stdout.contains("new paths       1"), "\(again.stdout)")

        try FileManager.default.setAttributes([.modificationDate: later.addingTimeInterval(60)],
                                              ofItemAtPath: folder.path("photos/2.png"))
        let asJSON = try json(try run(["--json"]).stdout)
        #expect(asJSON["new_paths"] as? Int == 0 && asJSON["already_stored"] as? Int == 1
                && asJSON["unchanged"] as? Int == 2, "\(asJSON)")

        // A copy under another name is a new path: imported.
        try FileManager.default.copyItem(atPath: folder.path("photos/0.png"), toPath: folder.path("photos/copy.png"))
        let quiet = try run(["--quiet"])
        #expect(quiet.stdout == "Imported 1 of 5 files into \(db): 3 already there, 0 failed, 1 known failure skipped\n",
                "\(quiet.stdout)")
    }
}
