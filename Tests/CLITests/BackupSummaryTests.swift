import Foundation
import Testing

/// `backup`'s line counts what it copied as `copy`'s does: a catalogue of one image said
/// "1 images, 1 paths, 1 classifications, 1 runs".
@Suite struct BackupSummaryTests {
    @Test func countsOfOneAreSingular() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(1, width: 120, height: 160, firstSeed: 41)
        let db = folder.path("c.sqlite")
        #expect(try WardrobeProcess.run(["import", "-q", "--db", db, folder.path("photos")]).status == 0)
        let backup = try WardrobeProcess.run(["backup", "--db", db, folder.path("b.sqlite")])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains(": 1 image, 1 path, 1 classification, 1 run, "), "\(backup.stdout)")
    }
}
