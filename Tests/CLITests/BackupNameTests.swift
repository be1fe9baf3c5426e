import Foundation
import Imaging
import Testing

/// `wardrobe backup FOLDER` names the copy after the catalogue and the time to the
/// millisecond. Named to the second, a second backup in the same second failed:
/// `backup not made: the file exists`. Five back to back take well under two seconds,
/// so at least two of them fell in one second before.
@Suite struct BackupNameTests {
    @Test func backupsIntoAFolderInTheSameSecondAreAllMade() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/one.png")
        let db = folder.path("wardrobe.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        try FileManager.default.createDirectory(atPath: folder.path("backups"), withIntermediateDirectories: true)
        let started = Date()
        for _ in 0..<5 {
            let backup = try WardrobeProcess.run(["backup", "--db", db, folder.path("backups")])
            #expect(backup.status == 0, "\(backup.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("backups")).sorted()
        #expect(names.count == 5, "\(names)")
        let pattern = #/wardrobe-\d{8}-\d{6}\.\d{3}(-\d+)?\.sqlite/#
        #expect(names.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(names)")
        if Date().timeIntervalSince(started) < 2 {
            #expect(Set(names.map { $0.prefix(22) }).count < 5, "some fell in one second: \(names)")
        }
    }
}
