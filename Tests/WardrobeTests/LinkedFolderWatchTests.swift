import Catalogue
import Foundation
import Imaging
import Synchronization
import Testing
@testable import Wardrobe

/// `import --watch` and symbolic links to folders. The import's walk follows them; the watch
/// looked at them as links and never watched them, so a photo added behind a link there at the
/// start, or behind a link made during the watch, was never imported, without a word. Now the
/// watch follows them as the walk does, under the same names, each folder once whatever loops
/// the links make, and a plain import afterwards finds nothing it did not take.
@Suite struct LinkedFolderWatchTests {
    @Test func photosBehindLinksToFoldersAreTakenUnderTheNamesTheWalkGives() throws {
        let source = try EngineFolder(fashionImages: 2)
        defer { source.remove() }
        let files = FileManager.default
        let watched = source.path("watched"), first = source.path("first"), second = source.path("second")
        for folder in [watched, first, second] { try files.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try files.createSymbolicLink(atPath: watched + "/at-start", withDestinationPath: first)
        // A loop back to the watched folder, and a second name for the first folder: each watched once.
        try files.createSymbolicLink(atPath: watched + "/again", withDestinationPath: watched)
        try files.createSymbolicLink(atPath: watched + "/twice", withDestinationPath: first)
        let catalogue = try source.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options, settle: 0.2)
        #expect(sync.watchedFolders == 2, "the watched folder and the first, once each")

        try files.copyItem(atPath: source.images[0], toPath: first + "/added.png")
        try files.copyItem(atPath: source.images[1], toPath: second + "/behind-new-link.png")
        try files.createSymbolicLink(atPath: watched + "/during", withDestinationPath: second)
        let expected = [watched + "/at-start/added.png", watched + "/during/behind-new-link.png"]

        var failures: [ImportReport.Failure] = []
        let stop = Atomic<Bool>(false)
        let deadline = Date().addingTimeInterval(20)
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) || Date() > deadline }, batch: { _ in
            if (try? expected.allSatisfy { try catalogue.knownPath($0) != nil }) == true { stop.store(true, ordering: .relaxed) }
        }, failure: { failures.append($0) })

        #expect(failures.isEmpty, "\(failures)")
        for path in expected { #expect(try catalogue.knownPath(path) != nil, "\(path) imported by the watch") }
        #expect(sync.watchedFolders == 3, "the folder behind the new link is watched too")
        let again = try importer.plan(options)
        #expect(again.toRead.isEmpty, "the walk finds only what the watch took: \(again.toRead.map { $0.path })")
        #expect(again.unchanged.map { $0.path }.sorted() == expected)
    }

    /// A link made a moment before the folder it names (a script's `ln -s` before its `mkdir`)
    /// is watched once the folder is there: it was dropped as a file gone before it settled.
    @Test func aLinkMadeJustBeforeItsFolderIsWatchedOnceTheFolderComes() throws {
        let source = try EngineFolder(fashionImages: 1)
        defer { source.remove() }
        let watched = source.path("watched"), later = source.path("later")
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        let catalogue = try source.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options, settle: 0.2)
        let photo = source.images[0]
        let maker = Thread {
            usleep(300_000)   // the watch is looking by now
            try! FileManager.default.createSymbolicLink(atPath: watched + "/early", withDestinationPath: later)
            usleep(50_000)
            try! FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
            try! FileManager.default.copyItem(atPath: photo, toPath: later + "/photo.png")
        }
        maker.start()

        let stop = Atomic<Bool>(false)
        let deadline = Date().addingTimeInterval(20)
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) || Date() > deadline }, batch: { _ in
            if (try? catalogue.knownPath(watched + "/early/photo.png")) != nil { stop.store(true, ordering: .relaxed) }
        }, failure: { _ in })
        #expect(try catalogue.knownPath(watched + "/early/photo.png") != nil)
    }
}
