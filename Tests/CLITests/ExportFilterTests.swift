import Foundation
import Imaging
import Testing

/// `export` takes `list`'s filters (it used to refuse them: `error: unknown option '--label'`):
/// the rows it writes are the images `list` shows for the same filters, and with `--all`
/// every classification of those images and of no other.
@Suite struct ExportFilterTests {
    @Test func exportWritesTheImagesListChooses() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<6 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)),
                             to: index < 2 ? "photos/coats/\(index).png" : "photos/other/\(index).png")
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--jobs", "1", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let coats = try WardrobeProcess.run(["list", "--db", db, "--path", folder.path("photos/coats/"), "--ids"])
        let ids = coats.stdout.split(separator: "\n").map(String.init)
        #expect(ids.count == 2, "\(coats.stdout)")
        let labelled = try WardrobeProcess.run(["label", "--db", db, "coat", "-"], input: coats.stdout)
        #expect(labelled.status == 0, "\(labelled.stderr)")

        let csv = try WardrobeProcess.run(["export", "--db", db, "--label", "coat"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").dropFirst()
        #expect(rows.map { String($0.prefix { $0 != "," }) }.sorted() == ids.sorted(), "\(csv.stdout)")
        #expect(rows.allSatisfy { $0.contains(",Coat,person,") }, "\(csv.stdout)")

        // The same filters as list, in the same words: --path, --uncorrected, --min-confidence.
        let others = try WardrobeProcess.run(["export", "--db", db, "--uncorrected", "--path", "*/other/*", "--format", "json"])
        #expect(others.status == 0, "\(others.stderr)")
        let objects = try JSONSerialization.jsonObject(with: Data(others.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(objects.count == 4 && objects.allSatisfy { ($0["path"] as? String)?.contains("/other/") == true }, "\(others.stdout)")

        let all = try WardrobeProcess.run(["export", "--db", db, "--all", "--label", "coat"])
        #expect(all.status == 0, "\(all.stderr)")
        let images = Set(all.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] })
        #expect(images.map(String.init).sorted() == ids.sorted(), "\(all.stdout)")

        let none = try WardrobeProcess.run(["export", "--db", db, "--label", "bag", "--format", "json"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stdout)\(none.stderr)")
        let wrong = try WardrobeProcess.run(["export", "--db", db, "--corrected", "--uncorrected"])
        #expect(wrong.status == 64 && wrong.stderr.contains("--corrected and --uncorrected cannot be combined"), "\(wrong.stderr)")
    }
}
