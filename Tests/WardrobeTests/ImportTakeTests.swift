import Catalogue
import Foundation
import Imaging
import Synchronization
import Testing
@testable import Wardrobe

/// An import's workers take several files at a time and classify the ones
/// they prepared in one call of the model. Every stored image must still be
/// what importing it alone gives: the same thumbnail, byte for byte, and
/// logits bit for bit those of its own tensor classified alone, which are
/// also what its stored thumbnail gives when prepared again (so `reclassify`
/// reproduces the import). A take that paired an image with another's
/// logits, or a batched model call that summed differently, fails here.
@Suite struct ImportTakeTests {
    @Test func filesTakenTogetherAreEachStoredAsImportedAlone() throws {
        let folder = try EngineFolder(fashionImages: 24)
        defer { folder.remove() }
        // Real photos (JPEG thumbnails) among the small PNGs (PNG thumbnails), and between
        // them files that fail and a copy that only gains a path, so that takes mix every
        // kind of outcome and the prepared images sit at every position of a take.
        let photos = FileManager.default.currentDirectoryPath + "/Fixtures/photos"
        let photoFiles = try #require(FileManager.default.enumerator(atPath: photos)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".jpg") }.sorted()
        #expect(photoFiles.count >= 10)
        for (index, photo) in photoFiles.enumerated() {
            try FileManager.default.copyItem(atPath: photos + "/" + photo,
                                             toPath: folder.path(String(format: "images/image-%03d-photo.jpg", index * 2)))
        }
        for index in [1, 6, 7, 15] {
            try Data("not a picture \(index)".utf8).write(to: URL(fileURLWithPath: folder.path(String(format: "images/image-%03d-junk.png", index))))
        }
        try FileManager.default.copyItem(atPath: folder.images[3], toPath: folder.path("images/image-010-copy.png"))

        let catalogue = try folder.catalogue()
        let classifier = try EngineFolder.classifier()
        let importer = Importer(catalogue: catalogue, classifier: classifier)
        let recipe = try PrepRecipes.named("photo")
        let options = ImportOptions(paths: [folder.path("images")], jobs: 2, recipe: recipe, batchSize: 64)
        let report = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        #expect(report.newImages == 24 + photoFiles.count)
        #expect(report.newPaths == 1)
        #expect(report.failed.count == 4)

        let processor = ImageProcessor()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("images"))
            .filter { !$0.contains("junk") }.sorted()
        for name in files {
            let path = folder.path("images/" + name)
            let alone = try processor.process(contentsOf: path, recipe: recipe)
            let logitsAlone = classifier.classify(tensor: alone.tensor.values).logits
            let known = try #require(try catalogue.knownPath(path), "\(name)")
            let stored = try #require(try catalogue.image(known.image))
            let history = try catalogue.history(of: stored.id)
            #expect(history.count == 1, "\(name): classified once")
            let logits = try #require(history.last?.classification.logits)
            #expect(logits.map(\.bitPattern) == logitsAlone.map(\.bitPattern), "\(name): logits as classified alone")
            let thumbnail = try #require(try catalogue.thumbnail(sha256: stored.sha256))
            #expect(thumbnail == alone.thumbnail, "\(name): thumbnail as made alone")
            let again = try processor.prepare(thumbnail: thumbnail, recipe: recipe)
            #expect(again.values == alone.tensor.values, "\(name): the stored thumbnail prepares to the same tensor")
        }
    }

    /// A stop part-way through a take ends the import after the file in hand: the files it
    /// prepared are classified and stored whole, the rest of the take is left for next time.
    @Test func aStopPartWayThroughATakeStoresWhatWasPrepared() throws {
        let folder = try EngineFolder(fashionImages: 40)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 64)
        let asked = Atomic<Int>(0)
        // Asked before the take, then before each file: true from the fourth file on.
        let settings = RunEngine.Settings(jobs: 1, batchSize: 64, itemsPerTake: 8) {
            asked.add(1, ordering: .relaxed).newValue > 4
        }
        let report = try importer.run(options, plan: try importer.plan(options), settings: settings,
                                      progress: { _ in }, failure: { _ in })

        #expect(report.interrupted)
        #expect(report.newImages == 3, "the files begun before the stop, not the whole take of 8")
        #expect(try catalogue.countCurrentClassifications() == 3, "each one classified")
        let run = try #require(try catalogue.runs().last)
        #expect(run.outcome == .interrupted)
        #expect(run.counts == RunCounts(seen: 40, imported: 3, classified: 3, skipped: 37, failed: 0))
    }
}
