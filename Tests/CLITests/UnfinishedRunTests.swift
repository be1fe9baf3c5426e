import Catalogue
import Foundation
import Testing

/// Issue 17, item 10: a run whose process is killed (`kill -9`) keeps its
/// committed batches with no end recorded. `history` and `stats` must show
/// it as interrupted, and the next command that opens the catalogue for
/// writing says so, once, and marks it.
@Suite(.serialized) struct UnfinishedRunTests {
    @Test func aKilledImportShowsAsInterruptedAndIsReportedOnce() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(300, width: 240, height: 320, firstSeed: 5000)
        let db = folder.path("c.sqlite")
        let stored = try killImportAfterFirstBatch(db: db, photos: folder.path("photos"))
        #expect(stored > 0 && stored < 300, "killed part-way (\(stored) stored)")

        // Reading commands show it, and mark nothing.
        let stats = try WardrobeProcess.run(["stats", "--db", db])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("interrupted runs"), "\(stats.stdout)")
        let statsJSON = try WardrobeProcess.run(["stats", "--db", db, "--json"])
        let counts = try JSONSerialization.jsonObject(with: Data(statsJSON.stdout.utf8)) as? [String: Any]
        #expect(counts?["interrupted_runs"] as? Int == 1)
        let history = try WardrobeProcess.run(["history", "--db", db, "1"])
        #expect(history.stdout.contains("import (interrupted)"), "\(history.stdout)")
        #expect(try Catalogue(path: db, mode: .readOnly).run(RunID(1))?.outcome == nil)

        // The first writing command says so and marks it; the next says nothing.
        let label = try WardrobeProcess.run(["label", "--db", db, "coat", "1"])
        #expect(label.status == 0, "\(label.stderr)")
        #expect(label.stderr.contains("run 1 ('import"), "\(label.stderr)")
        #expect(label.stderr.contains("was interrupted before it finished"))
        #expect(label.stderr.contains("the \(stored) classifications it committed are kept"), "\(label.stderr)")
        let again = try WardrobeProcess.run(["label", "--db", db, "--clear", "1"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("interrupted"), "\(again.stderr)")

        let run = try #require(try Catalogue(path: db, mode: .readOnly).run(RunID(1)))
        #expect(run.outcome == .interrupted)
        #expect(run.finishedAt == nil, "a killed run keeps no end time: it never had one")
        #expect(run.counts.classified == stored)
        #expect(run.state == .interrupted && run.wasKilled)
        #expect(try WardrobeProcess.run(["history", "--db", db, "1"]).stdout.contains("import (interrupted)"))
        #expect(try WardrobeProcess.run(["stats", "--db", db]).stdout.contains("interrupted runs"))

        // Resumed, the rest is imported under a run that finishes.
        let resumed = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(!resumed.stderr.contains("interrupted"))
        let runs = try Catalogue(path: db, mode: .readOnly).runs()
        #expect(runs.map(\.state) == [.interrupted, .finished])
    }

    /// Another process takes the catalogue's write lock after an import's first batch and
    /// keeps it while the import fails and tries to close its run: the run stays open, and
    /// the next writing command marks it interrupted. Its record said it had seen and imported
    /// nothing (only classifications and failures were counted, from their rows): each batch
    /// now writes the run's counts in its own transaction, so the record holds what was done.
    @Test func anImportWhoseCloseIsLockedOutKeepsTheCountsOfItsBatches() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(300, width: 240, height: 320, firstSeed: 7000)
        // First in the walk, so failed in the first batch.
        try folder.write(Array("not a photo\n".utf8), to: "photos/0-notes.jpg")
        let db = folder.path("c.sqlite")
        let process = try startImport(db: db, photos: folder.path("photos"))
        try waitForFirstBatch(db)
        let holder = try Database(path: db)
        try holder.executeScript("BEGIN IMMEDIATE")
        process.waitUntilExit()
        try holder.executeScript("ROLLBACK")
        #expect(process.terminationStatus == 1, "the batch after the lock failed")

        let reader = try Catalogue(path: db, mode: .readOnly)
        let stored = try reader.stats().images
        #expect(stored > 0 && stored < 300, "failed part-way (\(stored) stored)")
        let open = try #require(try reader.run(RunID(1)))
        #expect(open.outcome == nil && open.finishedAt == nil, "its close was locked out too")

        let label = try WardrobeProcess.run(["label", "--db", db, "coat", "1"])
        #expect(label.status == 0, "\(label.stderr)")
        #expect(label.stderr.contains("the \(stored) classifications it committed are kept"), "\(label.stderr)")
        let run = try #require(try Catalogue(path: db, mode: .readOnly).run(RunID(1)))
        #expect(run.outcome == .interrupted)
        #expect(run.counts == RunCounts(seen: 301, imported: stored, classified: stored, skipped: 301 - stored - 1,
                                        failed: 1), "\(run.counts)")
    }

    /// Ctrl-C is recorded as such: the run is closed, with its end, as interrupted.
    @Test func anInterruptedImportIsClosedAsInterrupted() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(200, width: 240, height: 320, firstSeed: 6000)
        let db = folder.path("c.sqlite")
        let process = try startImport(db: db, photos: folder.path("photos"))
        try waitForFirstBatch(db)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let run = try #require(try Catalogue(path: db, mode: .readOnly).run(RunID(1)))
        #expect(run.outcome == .interrupted)
        #expect(run.finishedAt != nil)
        #expect(!run.wasKilled)
    }

    /// A run's owner is judged by host, boot and process start time, so a
    /// reused pid does not keep a dead run alive.
    @Test func runOwnersAreJudgedByProcessIdentity() throws {
        #expect(!RunOwner.isGone(RunOwner.current))
        let parts = RunOwner.current.split(separator: " ").map(String.init)
        try #require(parts.count == 4)
        #expect(RunOwner.isGone(nil))
        #expect(!RunOwner.isGone("another-host \(parts[1]) 1 1"), "another host's run cannot be judged")
        if parts[1] != "-" {
            #expect(RunOwner.isGone("\(parts[0]) 00000000-0000-0000-0000-000000000000 \(parts[2]) \(parts[3])"))
            #expect(RunOwner.isGone("\(parts[0]) \(parts[1]) \(parts[2]) 1"), "same pid, another start: another process")
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        #expect(RunOwner.isGone("\(parts[0]) \(parts[1]) \(child.processIdentifier) \(parts[3])"))
    }

    private func startImport(db: String, photos: String) throws -> Process {
        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = ["import", "--db", db, "--jobs", "1", "--prep", "fashion-mnist", photos]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func waitForFirstBatch(_ db: String) throws {
        for _ in 0..<5000 {
            if let catalogue = try? Catalogue(path: db, mode: .readOnly), (try? catalogue.stats().images) ?? 0 > 0 {
                return
            }
            usleep(2_000)
        }
    }

    /// Starts a real import, waits for its first committed batch and kills
    /// it with SIGKILL; returns how many images it had stored.
    private func killImportAfterFirstBatch(db: String, photos: String) throws -> Int {
        let process = try startImport(db: db, photos: photos)
        try waitForFirstBatch(db)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        return try Catalogue(path: db, mode: .readOnly).stats().images
    }
}
