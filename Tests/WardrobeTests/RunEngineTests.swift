import Catalogue
import Foundation
import Imaging
import Synchronization
import Testing
import Training
@testable import Wardrobe

/// The run engine in-process, on real catalogue files and real images: how
/// a run ends when interrupted, when an item, a batch, a worker or the
/// writer fails. Every run leaves the catalogue whole, its workers ended,
/// and its record closed.
@Suite struct RunEngineTests {
    // MARK: - Through the import use case

    @Test func anInterruptedImportStopsBetweenBatchesAndClosesItsRun() throws {
        let folder = try EngineFolder(fashionImages: 60)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        let stop = Atomic<Bool>(false)
        let settings = RunEngine.Settings(jobs: 1, batchSize: 4) { stop.load(ordering: .relaxed) }
        let report = try importer.run(options, plan: try importer.plan(options), settings: settings, progress: {
            if $0.done >= 4 { stop.store(true, ordering: .relaxed) }
        }, failure: { _ in })

        #expect(report.interrupted)
        #expect(report.newImages >= 4 && report.newImages < 60, "stopped part-way: \(report.newImages) stored")
        #expect(try catalogue.stats().images == report.newImages, "everything taken was committed")
        #expect(try catalogue.countCurrentClassifications() == report.newImages, "only whole images")
        let run = try #require(try catalogue.runs().last)
        #expect(run.finishedAt != nil)
        #expect(run.outcome == .interrupted, "Ctrl-C is recorded as such")
        #expect(run.counts == RunCounts(seen: 60, imported: report.newImages, classified: report.newImages,
                                        skipped: 60 - report.newImages, failed: 0))
    }

    @Test func aFailingFileIsRecordedAndTheImportGoesOn() throws {
        let folder = try EngineFolder(fashionImages: 10)
        defer { folder.remove() }
        let junk = folder.path("images/notes.png")
        try Data("a shopping list, not a picture\n".utf8).write(to: URL(fileURLWithPath: junk))
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 3)
        var told: [ImportReport.Failure] = []
        let report = try importer.run(options, plan: try importer.plan(options), progress: { _ in },
                                      failure: { told.append($0) })

        #expect(report.newImages == 10)
        #expect(report.failed.map(\.path) == [junk])
        #expect(told == report.failed)
        let run = RunID(try #require(report.runID))
        #expect(try catalogue.failures(run: run).map(\.path) == [junk])
        #expect(try catalogue.run(run)?.counts == RunCounts(seen: 11, imported: 10, classified: 10, failed: 1))
    }

    /// The disk fills up (SQLite's `database or disk is full`) part-way through: the
    /// error comes out of the import, what was committed stays whole, and the
    /// run is closed with it.
    @Test func aFullDiskEndsTheImportWithItsErrorAndClosesTheRun() throws {
        let folder = try EngineFolder(fashionImages: 80)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        // Room for a few batches: each image takes a page of its own for its kept tensor, and
        // the first take's leases need theirs, so 6 pages held no batch in half the runs.
        try catalogue.limitGrowth(toPages: 40)
        var failures = 0
        let thrown = #expect(throws: CatalogueError.self) {
            _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in },
                                 failure: { _ in failures += 1 })
        }
        guard case .diskFull = thrown else { Issue.record("not a full disk: \(String(describing: thrown))"); return }
        #expect(failures == 0, "no file is blamed for the catalogue's failure")
        try catalogue.database.executeScript("PRAGMA max_page_count = 1073741823")
        #expect(try catalogue.integrityCheck() == ["ok"])
        let stored = try catalogue.stats().images
        #expect(stored > 0 && stored < 80, "failed part-way: \(stored) stored")
        let run = try #require(try catalogue.runs().last)
        #expect(run.finishedAt != nil, "the failed run is closed")
        #expect(run.outcome == .failed)
        #expect(run.counts.classified == stored)
        #expect(run.counts.skipped == 80 - stored)
    }

    /// Another process takes the write lock part-way through an import of files whose
    /// content is known (each only gains a path) and keeps it past the busy timeout: the
    /// batch of paths is lost, and the run's record counts those files as not done
    /// (skipped), never as done. They were counted done, the paths dropped from the batch
    /// before it was written, so the record said 12 seen and none skipped, imported or failed.
    @Test func pathsLostToALockAreCountedAsNotDone() throws {
        let folder = try EngineFolder(fashionImages: 12)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let first = try folder.importOptions(batchSize: 64)
        _ = try importer.run(first, plan: try importer.plan(first), progress: { _ in }, failure: { _ in })
        try FileManager.default.copyItem(atPath: folder.path("images"), toPath: folder.path("copies"))

        // Held from a thread of its own, a connection of its own: another writer to SQLite.
        let locked = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let path = catalogue.path
        let hold = Double(Database.busyTimeoutSeconds) + 3
        var holding = false
        let copies = ImportOptions(paths: [folder.path("copies")], jobs: 2,
                                   recipe: try PrepRecipes.named("fashion-mnist"), batchSize: 64)
        let thrown = #expect(throws: CatalogueError.self) {
            _ = try importer.run(copies, plan: try importer.plan(copies), progress: { _ in
                guard !holding else { return }
                holding = true
                Thread.detachNewThread {
                    defer { released.signal() }
                    guard let holder = try? Database(path: path), (try? holder.executeScript("BEGIN IMMEDIATE")) != nil
                    else { locked.signal(); return }
                    locked.signal()
                    Thread.sleep(forTimeInterval: hold)
                    try? holder.executeScript("ROLLBACK")
                }
                locked.wait()
            }, failure: { _ in })
        }
        released.wait()
        guard case .sqlite(let failure) = thrown, failure.code == 5 else {
            Issue.record("not the lock: \(String(describing: thrown))")
            return
        }
        let run = try #require(try catalogue.runs().last)
        #expect(run.outcome == .failed)
        #expect(run.counts == RunCounts(seen: 12, skipped: 12), "\(run.counts)")
        #expect(try catalogue.stats().paths == 12, "no path of the copies was written")
    }

    // MARK: - The engine with a use case of the test's own

    @Test func theWriterFailingMidRunStopsAndJoinsEveryWorker() throws {
        let folder = try EngineFolder(fashionImages: 80)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let work = DecodeAndClassify(classifier: try EngineFolder.classifier())
        var writer = ImageWriter(catalogue: catalogue)
        try catalogue.limitGrowth(toPages: 6)
        let engine = RunEngine(catalogue: catalogue, settings: RunEngine.Settings(jobs: 3, batchSize: 4))
        #expect(throws: CatalogueError.self) {
            _ = try engine.run(folder.images, work: work, writer: &writer, recording: try EngineFolder.recording())
        }
        let running = work.activity.running.load(ordering: .relaxed)
        #expect(running == 0, "no worker is left working")
        let calls = work.activity.calls.load(ordering: .relaxed)
        #expect(calls < 80, "workers stopped taking items (\(calls) taken)")
        usleep(200_000)
        let callsLater = work.activity.calls.load(ordering: .relaxed)
        #expect(callsLater == calls, "and none takes one later")
        let run = try #require(try catalogue.runs().last)
        #expect(run.finishedAt != nil)
        #expect(run.outcome == .failed)
        #expect(run.counts.classified == writer.stored)
        #expect(try catalogue.stats().images == writer.stored)
    }

    /// A batch the catalogue refuses (here a CHECK constraint) is rolled back
    /// whole; the batches before it stay; the run ends with that error.
    @Test func aFailingBatchIsRolledBackWholeAndEndsTheRun() throws {
        let folder = try EngineFolder(fashionImages: 30)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let work = DecodeAndClassify(classifier: try EngineFolder.classifier())
        // The tenth image cannot be stored: it is in the third batch of four.
        var writer = ImageWriter(catalogue: catalogue, unstorable: [folder.images[9]])
        let engine = RunEngine(catalogue: catalogue, settings: RunEngine.Settings(jobs: 1, batchSize: 4))
        let thrown = #expect(throws: CatalogueError.self) {
            _ = try engine.run(folder.images, work: work, writer: &writer, recording: try EngineFolder.recording())
        }
        guard case .sqlite(let failure) = thrown else { Issue.record("not an SQLite error"); return }
        #expect(failure.code == 19, "a constraint: \(failure)")
        #expect(try catalogue.stats().images == 8, "two whole batches, none of the third")
        for path in folder.images[8..<12] {
            #expect(try catalogue.image(path: path) == nil, "\(path) was rolled back with its batch")
        }
        let running = work.activity.running.load(ordering: .relaxed)
        #expect(running == 0)
        let run = try #require(try catalogue.runs().last)
        #expect(run.finishedAt != nil)
        #expect(run.outcome == .failed)
        #expect(run.counts == RunCounts(seen: 30, imported: 8, classified: 8, skipped: 22, failed: 0))
    }

    /// A worker that cannot open the catalogue (here: made by a newer build
    /// than the workers read) fails the run visibly, before any item is done.
    @Test func aWorkerThatCannotOpenTheCatalogueFailsTheRun() throws {
        let folder = try EngineFolder(fashionImages: 12)
        defer { folder.remove() }
        let newer = Migrator(migrations: Migrator.embedded.migrations + [
            Migration(version: Migrator.embedded.latestVersion + 1, name: "from_a_newer_build",
                      sql: "CREATE TABLE from_a_newer_build (id INTEGER PRIMARY KEY)"),
        ])
        let catalogue = try Catalogue(path: folder.path("catalogue.sqlite"), migrator: newer)
        let work = DecodeAndClassify(classifier: try EngineFolder.classifier())
        var writer = ImageWriter(catalogue: catalogue)
        let engine = RunEngine(catalogue: catalogue, settings: RunEngine.Settings(jobs: 2, batchSize: 4))
        let thrown = #expect(throws: CatalogueError.self) {
            _ = try engine.run(folder.images, work: work, writer: &writer, recording: try EngineFolder.recording())
        }
        guard case .newerCatalogue = thrown else { Issue.record("unexpected: \(String(describing: thrown))"); return }
        let calls = work.activity.calls.load(ordering: .relaxed)
        #expect(calls == 0)
        #expect(try catalogue.stats().images == 0)
        let run = try #require(try catalogue.runs().last)
        #expect(run.finishedAt != nil)
        #expect(run.outcome == .failed)
        #expect(run.counts == RunCounts(seen: 12, skipped: 12))
    }

    @Test func aDryRunRecordsNothing() throws {
        let folder = try EngineFolder(fashionImages: 9)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let work = DecodeAndClassify(classifier: try EngineFolder.classifier())
        var writer = ImageWriter(catalogue: catalogue)
        let summary = try RunEngine(catalogue: catalogue, settings: RunEngine.Settings(jobs: 2, batchSize: 4))
            .run(folder.images, work: work, writer: &writer, recording: nil)
        #expect(summary.run == nil && summary.done == 9 && !summary.interrupted)
        #expect(writer.taken == 9)
        #expect(try catalogue.runs().isEmpty)
        #expect(try catalogue.stats().images == 0)
    }
}

extension Catalogue {
    /// Lets this connection's file grow by `pages` more pages only: a full
    /// disk, for this connection alone.
    func limitGrowth(toPages pages: Int) throws {
        let count = try database.scalarInt("PRAGMA page_count") ?? 0
        try database.executeScript("PRAGMA max_page_count = \(count + Int64(pages))")
    }
}
