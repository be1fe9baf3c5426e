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
}
