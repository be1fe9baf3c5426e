import Catalogue
import Files
import Foundation
import Imaging
import Synchronization
import Testing
@testable import Wardrobe

/// The catalogue inside the folder being imported or watched, under a name that passing over
/// by extension does not know (`catalogue`, `catalogue.jpg`), or in a folder a link in the
/// watched one leads to. The watch took every write to the catalogue's `-wal` for a new file,
/// refused it as the catalogue and recorded a failure, which wrote the `-wal` again: a batch,
/// a run and a failure about once a second, for ever. The walk and the watch now share one
/// rule for wardrobe's own files (`OwnFiles`).
@Suite struct OwnFilesWatchTests {
    @Test(arguments: ["watched/catalogue", "watched/catalogue.jpg", "outside/catalogue"])
    func theCatalogueStartsNoBatchAndIsNoFailure(catalogueAt name: String) throws {
        let source = try EngineFolder(fashionImages: 1)
        defer { source.remove() }
        let watched = source.path("watched"), outside = source.path("outside")
        for folder in [watched, outside] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(atPath: watched + "/linked", withDestinationPath: outside)
        let catalogue = try Catalogue(path: source.path(name))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options, settle: 0.2)
        try FileManager.default.copyItem(atPath: source.images[0], toPath: watched + "/photo.png")

        var batchesAfter = 0
        var gone: [String] = []
        var failures: [ImportReport.Failure] = []
        let journal = catalogue.path + "-journal"
        let importedAt = Atomic<Double>(0)
        let deadline = Date().addingTimeInterval(30)
        try sync.run(shouldStop: {
            // Two seconds after the photo, in which any write of the catalogue's would be seen.
            let imported = importedAt.load(ordering: .relaxed)
            return (imported > 0 && Date().timeIntervalSince1970 - imported > 2) || Date() > deadline
        }, batch: { batch in
            gone += batch.gone
            if importedAt.load(ordering: .relaxed) > 0 {
                batchesAfter += 1
            } else if (try? catalogue.knownPath(watched + "/photo.png")) != nil {
                importedAt.store(Date().timeIntervalSince1970, ordering: .relaxed)
                // A journal made and deleted, as SQLite makes one: the watch hears of it only
                // after it is gone, so knows it by its name and folder.
                try? Data().write(to: URL(fileURLWithPath: journal))
                try? FileManager.default.removeItem(atPath: journal)
            }
        }, failure: { failures.append($0) })

        #expect(importedAt.load(ordering: .relaxed) > 0, "the photo was imported")
        #expect(failures.isEmpty, "\(failures)")
        #expect(batchesAfter == 0, "the catalogue's own writes started \(batchesAfter) batches")
        #expect(gone.isEmpty, "\(gone)")
        #expect(try catalogue.failingFiles().isEmpty)
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM runs") == 1, "one run: the photo's batch")
    }

    /// The walk passes over the same files: the catalogue's side files, wardrobe's temporary
    /// files (with `--hidden` too), and drops the failures an older watch recorded for them.
    @Test func theWalkPassesOverTheSameFilesAndForgetsTheirFailures() throws {
        let source = try EngineFolder(fashionImages: 1)
        defer { source.remove() }
        let photos = source.path("images")
        let catalogue = try Catalogue(path: photos + "/catalogue")
        try catalogue.recordFailure(path: catalogue.path + "-wal", reason: "is the catalogue this command writes")
        let unfinished = UnfinishedFile.name(beside: photos + "/export.png")
        try Data("half an export".utf8).write(to: URL(fileURLWithPath: unfinished))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [photos], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"), includeHidden: true)

        let plan = try importer.plan(options)
        #expect(plan.toRead.map(\.path) == source.images, "only the photo is read")
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        let report = try importer.run(options, plan: plan, shouldStop: { false }, progress: { _ in }, failure: { _ in })
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(try catalogue.failingFiles().isEmpty, "the -wal an older watch recorded fails no more")
    }
}
