import Catalogue
import Foundation
import Imaging
import Testing

/// A catalogue held open by one process (`import --watch`, `serve`) while another
/// `wardrobe` process opens it, writes and closes. The closing process must see the
/// first still there; if the first had lost its locks on the file (closing a second
/// descriptor of it drops them all), the closer would checkpoint and delete the WAL
/// under the open connection, whose next read then fails ("disk I/O error", as
/// `import --watch` did beside a `sqlite3` shell).
@Suite struct SharedCatalogueTests {
    @Test func anotherProcessClosingLeavesTheOpenCataloguesWAL() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/0.png")
        let db = folder.path("c.sqlite")
        let catalogue = try Catalogue(path: db)
        #expect(FileManager.default.fileExists(atPath: db + "-wal"), "the new catalogue's pages are in its WAL")

        let result = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--quiet",
                                              folder.path("photos")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: db + "-wal"),
                "the other process took itself for the last connection and removed the WAL")
        #expect(try catalogue.stats().images == 1, "the open connection reads the other's commit")
        let reopened = try Catalogue(path: db)
        #expect(try reopened.integrityCheck() == ["ok"])
    }
}
