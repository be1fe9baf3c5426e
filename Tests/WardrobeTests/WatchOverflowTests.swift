import Catalogue
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Synchronization
import Testing
@testable import Wardrobe

/// `import --watch` when the kernel's inotify queue overflows (more changes between two
/// looks than `fs.inotify.max_queued_events`): the lost events are made good by reading the
/// folder again. Before, the watcher dropped the overflow event unread: files that arrived
/// in the flood were never imported and a file deleted in it was never marked missing.
///
/// The queue's size is fixed when a watcher is made, so the test lowers the system setting
/// (root only) for just the making of one watcher, then puts it back.
@Suite struct WatchOverflowTests {
    static let queueSetting = "/proc/sys/fs/inotify/max_queued_events"

    @Test(.enabled(if: getuid() == 0, "lowering fs.inotify.max_queued_events needs root"))
    func filesThatArriveInAFloodAreAllImportedAndAGoneOneMarkedMissing() throws {
        let source = try EngineFolder(fashionImages: 47)
        defer { source.remove() }
        let watched = source.path("watched")
        try FileManager.default.createDirectory(atPath: watched + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source.images[0], toPath: watched + "/kept.png")
        try FileManager.default.copyItem(atPath: source.images[1], toPath: watched + "/deleted.png")
        let catalogue = try Catalogue(path: source.path("catalogue.sqlite"))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 2, recipe: try PrepRecipes.named("fashion-mnist"))
        let settings = RunEngine.Settings(jobs: 2, batchSize: options.batchSize, shouldStop: { false })
        _ = try importer.run(options, plan: try importer.plan(options), settings: settings, progress: { _ in }, failure: { _ in })
        #expect(try catalogue.stats().images == 2)

        let saved = try String(contentsOfFile: Self.queueSetting, encoding: .utf8)
        try "8\n".write(toFile: Self.queueSetting, atomically: false, encoding: .utf8)
        let made = Result { try FolderSync(importer: importer, options: options, settle: 0.2) }
        try saved.write(toFile: Self.queueSetting, atomically: false, encoding: .utf8)
        let sync = try made.get()

        // Far more than eight events before the first look: a delete, 40 files, a folder with 5.
        try FileManager.default.removeItem(atPath: watched + "/deleted.png")
        for index in 0..<40 {
            try FileManager.default.copyItem(atPath: source.images[2 + index], toPath: watched + "/flood-\(index).png")
        }
        try FileManager.default.createDirectory(atPath: watched + "/sub/new", withIntermediateDirectories: true)
        for index in 0..<5 {
            try FileManager.default.copyItem(atPath: source.images[42 + index], toPath: watched + "/sub/new/late-\(index).png")
        }
        let flood = (0..<40).map { watched + "/flood-\($0).png" } + (0..<5).map { watched + "/sub/new/late-\($0).png" }

        var rescanned: [String] = []
        var failures: [ImportReport.Failure] = []
        let stop = Atomic<Bool>(false)
        let deadline = Date().addingTimeInterval(30)
        func done() -> Bool {
            (try? flood.allSatisfy { try catalogue.knownPath($0) != nil }) == true
                && (try? catalogue.knownPath(watched + "/deleted.png")?.isMissing) == true
        }
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) || Date() > deadline }, batch: { batch in
            rescanned += batch.rescanned
            if done() { stop.store(true, ordering: .relaxed) }
        }, failure: { failures.append($0) })

        #expect(rescanned == [watched], "the overflow was noticed and the folder read again")
        #expect(failures.isEmpty, "\(failures)")
        for path in flood { #expect(try catalogue.knownPath(path) != nil, "\(path) imported") }
        #expect(try catalogue.knownPath(watched + "/deleted.png")?.isMissing == true, "the file deleted in the flood is missing")
        #expect(try catalogue.knownPath(watched + "/kept.png")?.isMissing == false)
        #expect(try catalogue.stats().images == 47)
        let classifications = try catalogue.database.scalarInt("SELECT count(*) FROM classifications") ?? 0
        #expect(classifications == 47, "each image classified once, the kept one not again")
    }
}
