import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Paths that follow the files, failures counted once per file, and
/// `forget`, the one operation that deletes history.
@Suite struct ForgetAndPathTests {
    typealias Setup = CatalogueStoreTests.Setup

    /// A thumbnail no other image shares, long enough to be found unambiguously.
    static func distinctiveThumbnail() -> [UInt8] {
        var state: UInt64 = 0xF0F0_1234
        return (0..<6_000).map { _ in
            state = Synthetic.mix(state)
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Test func forgetLeavesNoRowAndNoThumbnailByteInTheFileOrItsLog() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.insertImages((0..<50).map { Synthetic.image($0) }, run: setup.run)
        let thumbnail = ForgetAndPathTests.distinctiveThumbnail()
        var secret = Synthetic.image(1_000)
        secret.thumbnail = thumbnail
        let id = try catalogue.insertImages([secret], run: setup.run)[0].image
        try catalogue.insertImages([Synthetic.copy(of: secret, at: "/elsewhere/copy.jpg")], run: setup.run)
        try catalogue.correct([id], .label(2), command: "label")
        let run2 = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: Recipe(name: "photo", version: 1))
        try catalogue.addClassifications([(id, Synthetic.classification(3, variant: 2))], run: run2)
        let main = catalogue.path, log = catalogue.path + "-wal"
        #expect(FileBytes.contains(main, thumbnail) || FileBytes.contains(log, thumbnail))

        let report = try catalogue.forget([id])
        #expect(report.images == 1 && report.paths == 2 && report.classifications == 2 && report.corrections == 1)
        #expect(report.logEmptied)
        for (table, column) in [("images", "id"), ("image_paths", "image_id"), ("classifications", "image_id"),
                                ("current_classifications", "image_id"), ("corrections", "image_id"),
                                ("images_being_forgotten", "image_id")] {
            #expect(try catalogue.database.scalarInt("SELECT count(*) FROM \(table) WHERE \(column) = :id", [":id": id]) == 0, "\(table)")
        }
        #expect(!FileBytes.contains(main, thumbnail), "the thumbnail's bytes stay in the catalogue file")
        #expect(!FileBytes.contains(log, thumbnail), "the thumbnail's bytes stay in the -wal")
        #expect(try catalogue.integrityCheck() == ["ok"])
        #expect(try catalogue.database.scalarInt("PRAGMA foreign_key_check") == nil)
        try CatalogueQueryTests.expectLabelCountsMatch(catalogue)
        // Outside forget, history stays undeletable.
        #expect(throws: CatalogueError.self) { try catalogue.database.execute("DELETE FROM classifications WHERE image_id = 1") }
        #expect(throws: CatalogueError.self) { try catalogue.forget([id]) }
    }

    /// On both engines, through the storage protocol.
    @Test(arguments: EngineParityTests.engines)
    func aLookMarksGonePathsAndTheBestPathIsAnExistingOne(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let old = Date(timeIntervalSince1970: 1_750_000_000)
        func insert(_ image: NewImage, at date: Date) throws -> ImageID {
            var inserted: [InsertedImage] = []
            try catalogue.writing(run: setup.run, at: date) { batch in
                inserted = try batch.insertImages([image], known: .isClassifiedAgain)
                return RunCounts()
            }
            return inserted[0].image
        }
        let id = try insert(Synthetic.image(1), at: old)
        let first = try #require(Synthetic.image(1).file).path
        let moved = "/photos/moved/0000001.jpg"
        #expect(try insert(Synthetic.copy(of: Synthetic.image(1), at: moved), at: old.addingTimeInterval(-60)) == id)
        // The older sighting still loses to the newer one while both exist.
        #expect(try catalogue.currentClassifications(ClassificationQuery()).first?.path == first)

        let check = try catalogue.recordLook(present: [moved], missing: [first, "/unknown"], dropMissing: false,
                                             at: old.addingTimeInterval(60))
        #expect(check.checked == 2 && check.newlyMissing == 1 && check.missing == 1)
        let listed = try #require(try catalogue.currentClassifications(ClassificationQuery()).first)
        #expect(listed.path == moved && !listed.pathMissing)
        let paths = try catalogue.paths(of: id)
        #expect(paths.map(\.path) == [moved, first] && paths.map(\.isMissing) == [false, true])
        #expect(try catalogue.knownPaths(under: "/photos/moved").map(\.path) == [moved])
        #expect(try catalogue.knownPaths(under: "/photos/").count == 2)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(missing: true)) == 0)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(pathPattern: "*/moved/*")) == 1)
        #expect(try catalogue.stats().missingPaths == 1)

        let dropped = try catalogue.recordLook(present: [], missing: [moved, first], dropMissing: true, at: Date())
        #expect(dropped.dropped == 2 && dropped.newlyMissing == 1)
        let orphan = try #require(try catalogue.currentClassifications(ClassificationQuery()).first)
        #expect(orphan.path == nil && orphan.image == id, "the image stays, with no file")
        #expect(try catalogue.history(of: id).count == 1 && catalogue.thumbnail(of: id) != nil)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(missing: true)) == 1)
    }

    @Test func aFailingFileIsOneRowHoweverOftenItFailsUntilItIsStored() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        let junk = SeenFile(path: "/photos/junk.jpg", size: 10, modificationTimeNanoseconds: 5)
        try catalogue.recordFailure(path: junk.path, reason: "not an image", run: setup.run, file: junk)
        try catalogue.recordFailure(path: junk.path, reason: "truncated JPEG", run: setup.run, file: junk)
        try catalogue.recordFailure(path: "/photos/unreadable", reason: "permission denied")
        let failing = try #require(try catalogue.failingFile(junk.path))
        #expect(failing.attempts == 2 && failing.reason == "truncated JPEG" && failing.isUnchanged(junk))
        #expect(!failing.isUnchanged(SeenFile(path: junk.path, size: 11, modificationTimeNanoseconds: 5)))
        #expect(try catalogue.stats().failures == 2)
        #expect(try catalogue.failures().count == 3, "the log keeps every attempt")

        var fixed = Synthetic.image(1)
        fixed.file = SeenFile(path: junk.path, size: 12, modificationTimeNanoseconds: 6)
        try catalogue.insertImages([fixed], run: setup.run)
        #expect(try catalogue.failingFile(junk.path) == nil)
        #expect(try catalogue.failingFiles().map(\.path) == ["/photos/unreadable"])
    }

    @Test(arguments: EngineParityTests.engines)
    func anAdoptedModelIsTheLatestAdoption(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let store = setup.catalogue
        #expect(try store.adoptedModel() == nil)
        let first = try store.adoptModel(setup.model, file: [1, 2, 3], sourcePath: "/m/a.aimodel", command: "model use", at: Date())
        #expect(try store.adoptedModel()?.model == setup.model)
        try store.adoptModel(nil, file: nil, sourcePath: nil, command: "model use", at: Date())
        #expect(try store.adoptedModel()?.model == nil)
        #expect(try store.adoptedModelFile(first) == [1, 2, 3])
    }

    /// Settings are read and written through the SQLite type only: the storage protocol has no call for them.
    @Test func settingsKeepTheLatestValue() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.setSetting("prep", to: "photo")
        try catalogue.setSetting("prep", to: "fashion-mnist")
        #expect(try catalogue.setting("prep") == "fashion-mnist" && catalogue.setting("other") == nil)
    }
}
