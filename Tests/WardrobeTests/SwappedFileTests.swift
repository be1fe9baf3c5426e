import Catalogue
import Foundation
import Testing
@testable import Wardrobe

/// Files that change between the walk and the read: a FIFO swapped in for a photo
/// (which a blocking `open` would wait on forever), a folder, a vanished file. Each is
/// one failure with its reason; the import goes on and ends.
@Suite struct SwappedFileTests {
    @Test func aFIFOSwappedInAfterTheWalkIsAFailureNotAHang() throws {
        let folder = try EngineFolder(fashionImages: 8)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        let plan = try importer.plan(options)
        #expect(plan.toRead.count == 8)
        // After the walk: one photo becomes a FIFO, one a folder, one disappears.
        try FileManager.default.removeItem(atPath: folder.images[2])
        try #require(mkfifo(folder.images[2], 0o644) == 0)
        try FileManager.default.removeItem(atPath: folder.images[4])
        try FileManager.default.createDirectory(atPath: folder.images[4], withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: folder.images[6])

        var failures: [String: String] = [:]
        let report = try importer.run(options, plan: plan, progress: { _ in }, failure: { failures[$0.path] = $0.reason })
        #expect(report.newImages == 5)
        #expect(failures[folder.images[2]]?.contains("not a regular file (a FIFO)") == true, "\(failures)")
        #expect(failures[folder.images[4]]?.contains("is a directory") == true, "\(failures)")
        #expect(failures[folder.images[6]]?.contains("No such file") == true, "\(failures)")
        #expect(failures.count == 3)
    }
}
