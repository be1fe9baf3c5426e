import Catalogue
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
        let children = try (0..<processes).map { _ -> (Process, Pipe) in
            let process = Process()
            process.executableURL = WardrobeProcess.executable
            process.arguments = ["import", "--db", db, "--prep", "fashion-mnist", "--jobs", "1", "--quiet",
                                 folder.path("photos")]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in children {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
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
