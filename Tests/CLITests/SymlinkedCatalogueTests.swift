import Foundation
import Imaging
import Testing

/// A catalogue inside the folder being imported is passed over, also when the
/// catalogue or the folder is named through a symbolic link (its files were once
/// reported as "not an image" on every run).
@Suite(.serialized) struct SymlinkedCatalogueTests {
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func theCatalogueIsRecognisedUnderAnyName(catalogueThroughLink: Bool, folderThroughLink: Bool) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "real/\(index).png")
        }
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("real"))
        let db = folder.path(catalogueThroughLink ? "link/c.sqlite" : "real/c.sqlite")
        let root = folder.path(folderThroughLink ? "link" : "real")
        for round in 0..<2 {
            let result = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", root])
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            #expect(!result.stderr.contains("c.sqlite"), "round \(round): \(result.stderr)")
        }
    }

    /// A catalogue's name is a file's name, even where SQLite would read it otherwise: a
    /// relative `file:c.sqlite` was taken as a URI and opened `c.sqlite` (its query as
    /// options), and `:memory:` as a database in memory, lost at exit.
    @Test(arguments: ["file:c.sqlite", "file:c.sqlite?mode=ro", ":memory:"])
    func aCatalogueNamedLikeAnSQLiteURIIsThatFile(name: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/1.png")
        let here = URL(fileURLWithPath: folder.path(""))
        for round in 0..<2 {
            let result = try WardrobeProcess.run(["import", "--db", name, "--prep", "fashion-mnist", "--json", "photos"],
                                                 currentDirectory: here)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(report?[round == 0 ? "new_images" : "unchanged"] as? Int == 1, "\(name), round \(round): \(result.stdout)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.path(name)), "\(name) is the file written")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "no other file is written")
    }
}
