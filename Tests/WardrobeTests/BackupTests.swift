import Catalogue
import Files
import Foundation
import Synchronization
import Testing
@testable import Wardrobe

/// `wardrobe backup` while an import writes: the copy is one consistent snapshot (whole
/// batches only), passes its own checks, and opens as a catalogue.
@Suite struct BackupTests {
    @Test func aBackupTakenDuringAnImportIsWholeAndOpens() throws {
        let folder = try EngineFolder(fashionImages: 600)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 8)
        let plan = try importer.plan(options)
        let cataloguePath = folder.path("catalogue.sqlite"), backupPath = folder.path("backup.sqlite")
        let importDone = Atomic<Bool>(false)
        let taken = Mutex<(backup: CatalogueBackup?, error: String?, importWasRunning: Bool)?>(nil)
        // Another connection on another thread, as another process would have, once some batches are in.
        let backingUp = Thread {
            do {
                let reader = try Catalogue(path: cataloguePath, mode: .readOnly)
                let deadline = Date().addingTimeInterval(60)
                while try reader.stats().images < 40, Date() < deadline { usleep(2_000) }
                let backup = try CatalogueBackup(of: reader, to: backupPath)
                let running = !importDone.load(ordering: .acquiring)
                taken.withLock { $0 = (backup, nil, running) }
            } catch {
                taken.withLock { $0 = (nil, "\(error)", false) }
            }
        }
        backingUp.start()
        _ = try importer.run(options, plan: plan, progress: { _ in }, failure: { _ in })
        importDone.store(true, ordering: .releasing)
        var outcome: (backup: CatalogueBackup?, error: String?, importWasRunning: Bool)?
        while outcome == nil {
            outcome = taken.withLock { $0 }
            if outcome == nil { usleep(10_000) }
        }
        let backup = try #require(outcome?.backup, "backup failed: \(outcome?.error ?? "")")
        let importWasRunning = outcome?.importWasRunning ?? false
        let reader = try Catalogue(path: cataloguePath, mode: .readOnly)

        #expect(importWasRunning, "the backup was taken while the import was writing")
        #expect(backup.integrity == "ok")
        #expect(backup.images >= 40 && backup.images < 600, "a snapshot part-way: \(backup.images) images")
        let copy = try Catalogue(path: folder.path("backup.sqlite"), mode: .readOnly)
        #expect(try copy.integrityCheck() == ["ok"])
        #expect(try copy.stats().images == backup.images)
        #expect(try copy.countCurrentClassifications() == backup.images, "whole images only: each with its classification")
        #expect(try copy.runs().count == 1 && copy.runs()[0].finishedAt == nil, "the run as it stood: still open")
        #expect(!FileManager.default.fileExists(atPath: folder.path("backup.sqlite-wal")), "one file")
        #expect(try catalogue.stats().images == 600, "the import finished undisturbed")

        // An existing file is never overwritten.
        #expect(throws: CatalogueError.self) { _ = try CatalogueBackup(of: reader, to: folder.path("backup.sqlite")) }
        #expect(try Catalogue(path: folder.path("backup.sqlite"), mode: .readOnly).stats().images == backup.images)
    }

    /// A stop asked for at any point, between steps of the copy or while the copy is
    /// checked, ends the backup as not made and leaves nothing in the folder; once no stop
    /// comes, the backup is made. Before, Ctrl-C killed `wardrobe backup` at once and left
    /// its temporary copy beside FILE.
    @Test func aBackupStoppedAtAnyPointIsNotMadeAndLeavesNothing() throws {
        let folder = try EngineFolder(fashionImages: 200)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 50)
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })

        var stoppedAt: [Int] = []
        var madeAt: Int?
        for n in 1...1_000 {
            let calls = StopCalls()
            let target = folder.path("backup-\(n).sqlite")
            do {
                _ = try catalogue.backup(to: target, shouldStop: { calls.count.add(1, ordering: .relaxed).newValue >= n })
                madeAt = n
                break
            } catch CatalogueError.backupFailed(_, let reason) {
                #expect(reason == "interrupted; the part already copied was removed")
                stoppedAt.append(n)
            }
            #expect(!FileManager.default.fileExists(atPath: target))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path("")).filter { $0.contains("unfinished") || $0.contains(".partial-") }
            #expect(left.isEmpty, "nothing left behind: \(left)")
        }
        #expect(stoppedAt.first == 1, "a stop before the first step")
        #expect(stoppedAt.count > 2, "stops while the copy was checked too: \(stoppedAt)")
        let made = try #require(madeAt)
        #expect(try Catalogue(path: folder.path("backup-\(made).sqlite"), mode: .readOnly).stats().images == 200)
    }

    /// A backup killed while it copies (`kill -9`, a power cut) cannot remove its copy. That
    /// copy is hidden and named as unfinished, never `FILE.partial-PID` (a whole SQLite file
    /// that opened as a backup), and the next backup in that folder removes the copies of
    /// processes that are gone, those old names too, and leaves what it cannot judge.
    @Test func aKilledBackupsCopyIsNeverTakenForABackupAndTheNextRemovesIt() throws {
        let folder = try EngineFolder(fashionImages: 2)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier
        let me = ProcessIdentity.current
        let copy = try Data(contentsOf: URL(fileURLWithPath: catalogue.path))
        let oldCopy = "catalogue.sqlite.partial-\(gone)"
        let goneCopy = UnfinishedFile.name(beside: folder.path("catalogue.sqlite"),
                                           for: ProcessIdentity(host: me.host, boot: me.boot, pid: gone, start: "1"), tag: "killed")
        let liveCopy = UnfinishedFile.name(beside: folder.path("catalogue.sqlite"), for: me, tag: "living")
        let otherHost = UnfinishedFile.name(beside: folder.path("catalogue.sqlite"),
                                            for: ProcessIdentity(host: "elsewhere", boot: "-", pid: gone, start: "1"), tag: "remote")
        for path in [folder.path(oldCopy), goneCopy, liveCopy, otherHost] { try copy.write(to: URL(fileURLWithPath: path)) }
        try Data().write(to: URL(fileURLWithPath: folder.path(oldCopy + "-wal")))
        try Data("notes, not a catalogue".utf8).write(to: URL(fileURLWithPath: folder.path("notes.partial-\(gone)")))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("")))

        let seen = Mutex(Set<String>())
        let root = folder.path("")
        _ = try catalogue.backup(to: folder.path("backup.sqlite"), shouldStop: {
            let now = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            seen.withLock { $0.formUnion(now.filter { !before.contains($0) }) }
            return false
        })
        let seenWhileCopying = seen.withLock { $0 }
        #expect(!seenWhileCopying.isEmpty)
        for name in seenWhileCopying where name != "backup.sqlite" {
            #expect(name.hasPrefix(".backup.sqlite.wardrobe-unfinished+"), "the copy being written is hidden and named unfinished: \(name)")
        }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("")))
        let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
        #expect(!after.contains(oldCopy) && !after.contains(oldCopy + "-wal"), "an old copy of a process gone: \(after)")
        #expect(!after.contains(name(goneCopy)), "a copy of a process gone")
        #expect(after.isSuperset(of: [name(liveCopy), name(otherHost), "notes.partial-\(gone)", "backup.sqlite"]), "\(after)")
    }

    /// Whatever has the name FILE is left alone, also a symbolic link that points nowhere
    /// (which the look for an existing file followed, found nothing behind, and so the copy
    /// replaced the link); the check and the naming are one step, so a file made meanwhile
    /// is not replaced either.
    @Test func aSymbolicLinkAtTheNameIsNeverReplaced() throws {
        let folder = try EngineFolder(fashionImages: 2)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let link = folder.path("backup.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path("nowhere/x.sqlite"))
        #expect(throws: CatalogueError.self) { _ = try CatalogueBackup(of: catalogue, to: link) }
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(target == folder.path("nowhere/x.sqlite"), "the link is still there, pointing where it did")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path("")).filter { $0.contains("unfinished") || $0.contains(".partial-") }
        #expect(left.isEmpty, "no partial copy left behind: \(left)")
        // A free name still gets its backup.
        _ = try CatalogueBackup(of: catalogue, to: folder.path("other.sqlite"))
        #expect(try Catalogue(path: folder.path("other.sqlite"), mode: .readOnly).integrityCheck() == ["ok"])
    }

    /// A folder as FILE gets a new file in it, named after the catalogue and the time in UTC to
    /// the millisecond; a second backup at the same moment gets the next number, never the
    /// first one's name (it used to be refused: "the file exists").
    @Test func aFolderGetsADatedCopyInIt() throws {
        let folder = try EngineFolder(fashionImages: 2)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let backups = folder.path("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: false)
        let noon = Date(timeIntervalSince1970: 1_796_126_400)   // 2026-12-01 12:00:00 UTC
        let stem = URL(fileURLWithPath: catalogue.path).deletingPathExtension().lastPathComponent
        let backup = try CatalogueBackup(of: catalogue, to: backups, at: noon)
        #expect(backup.backup == backups + "/\(stem)-20261201-120000.000.sqlite")
        #expect(try Catalogue(path: backup.backup, mode: .readOnly).integrityCheck() == ["ok"])
        let again = try CatalogueBackup(of: catalogue, to: backups + "/", at: noon)
        #expect(again.backup == backups + "/\(stem)-20261201-120000.000-2.sqlite")
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
                == ["\(stem)-20261201-120000.000-2.sqlite", "\(stem)-20261201-120000.000.sqlite"])
    }
}

/// How many times a backup asked whether to stop.
private final class StopCalls: Sendable {
    let count = Atomic<Int>(0)
}
