import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// Several `wardrobe import` processes on one folder and one catalogue at once: whoever
/// stores an image first classifies it; for the others a known image only gains a path.
/// (Two at once once classified 1,478 images twice.)
@Suite(.serialized) struct ConcurrentImportTests {
    @Test(arguments: [2, 4])
    func aKnownImageIsClassifiedOnceWhoeverWins(processes: Int) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let png = PNGEncoder()
        for index in 0..<120 {
            try folder.write(try png.encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path("c.sqlite")
        // The catalogue exists first, so the race is over images, not over creating it.
        _ = try Catalogue(path: db)
        let outcomes = try SimultaneousProcesses.run(
            WardrobeProcess.executable,
            ["import", "--db", db, "--prep", "fashion-mnist", "--jobs", "1", "--quiet", folder.path("photos")],
            count: processes, environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        #expect(try catalogue.stats().images == 120)
        let twice = try catalogue.database.scalarInt("""
            SELECT count(*) FROM (SELECT image_id FROM classifications GROUP BY image_id HAVING count(*) > 1)
            """)
        #expect(twice == 0, "\(twice ?? -1) images were classified more than once")
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM classifications") == 120)
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM image_paths") == 120)
    }
}
