import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// An import whose catalogue's disk fills up part-way: the workers are
/// stopped and joined, the run is closed, and the tool exits 1 with one
/// error line. (Workers used to outlive the main thread and crash in
/// libcrypto's clean-up, in about half of the runs.) Needs a small tmpfs,
/// so root; skipped otherwise.
@Suite(.serialized) struct FullDiskTests {
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskEndsTheImportWithOneErrorLine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(150, width: 480, height: 640, firstSeed: 500, quality: 90)
        guard let disk = SmallDisk(megabytes: 1) else {
            print("FullDiskTests: cannot mount a tmpfs here; skipped")
            return
        }

        // Several times: the crash it guards against came in about half of the runs.
        for attempt in 0..<4 {
            let db = disk.path + "/catalogue-\(attempt).sqlite"
            let result = try WardrobeProcess.run(["import", "--db", db, "--jobs", "4", "--quiet", folder.path("photos")])
            #expect(result.status == 1, "attempt \(attempt): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("the disk is full") && lines[0].contains(db), "attempt \(attempt): \(result.stderr)")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
    }

    /// Six more rounds on a 1 MB tmpfs with three workers, reading the catalogue back
    /// after each: every committed image whole, one error line, no crash.
    @Test func whatACutOffImportCommittedIsWholeAndItsRunNotFinished() throws {
        guard SmallDisk(megabytes: 1) != nil else {
            print("FullDiskTests: skipped (needs root to mount a 1 MB tmpfs)")
            return
        }
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(240, width: 480, height: 360, firstSeed: 5000, quality: 90)
        for round in 0..<6 {
            let disk = try #require(SmallDisk(megabytes: 1))
            let db = disk.path + "/catalogue.sqlite"
            let result = try TimedProcess.run(["import", "--db", db, "--jobs", "3", "--prep", "fashion-mnist",
                                               folder.path("photos")], seconds: 120)
            #expect(!result.timedOut, "round \(round): import hung on a full disk")
            #expect(result.status == 1, "round \(round): exit status \(result.status)\n\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Crash"),
                    "round \(round): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.lowercased().hasPrefix("error") }
            #expect(errors.count == 1, "round \(round): one error line: \(result.stderr)")
            #expect(errors.first?.contains("full") == true, "round \(round): \(result.stderr)")

            // What was committed is whole.
            let catalogue = try Catalogue(path: db, mode: .readOnly)
            #expect(try catalogue.integrityCheck() == ["ok"])
            let images = try catalogue.stats().images
            #expect(images < 240)
            #expect(try catalogue.countCurrentClassifications() == images)
        }
    }

    /// A backup onto a disk too small for it: one line naming the backup (not SQLite's
    /// temporary copy) and saying the disk is full, and nothing left behind on that disk.
    @Test func aBackupOntoAFullDiskSaysSoAndLeavesNothing() throws {
        guard let disk = SmallDisk(megabytes: 1) else {
            print("FullDiskTests: skipped (needs root to mount a 1 MB tmpfs)")
            return
        }
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(260, width: 480, height: 640, firstSeed: 9000, quality: 90)
        let db = folder.path("catalogue.sqlite")
        #expect(try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("photos")]).status == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int)
        #expect(size > 1_200_000, "the catalogue must not fit on the disk: \(size) bytes")

        let target = disk.path + "/backup.sqlite"
        let result = try WardrobeProcess.run(["backup", "--db", db, target])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(target + ": backup not made: the disk is full"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
        #expect(try WardrobeProcess.run(["check", "--db", db]).status == 0)
    }
}
