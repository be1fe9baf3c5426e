import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Writing to the catalogue: batches, duplicates, paths, models, runs.
@Suite struct CatalogueStoreTests {
    /// A catalogue with one model and one open import run.
    struct Setup {
        let directory: TemporaryDirectory
        let catalogue: Catalogue
        let model: ModelID
        let run: RunID

        init(_ storage: Storage = .file) throws {
            directory = try TemporaryDirectory()
            catalogue = try Catalogue(path: storage == .memory ? ":memory:" : directory.path("wardrobe.sqlite"))
            model = try catalogue.registerModel(Synthetic.model())
            run = try catalogue.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
        }
    }

    @Test(arguments: Storage.allCases)
    func aBatchStoresImagesPathsAndClassifications(storage: Storage) throws {
        let setup = try Setup(storage)
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        let batch = (0..<20).map { Synthetic.image($0) }
        let inserted = try catalogue.insertImages(batch, run: setup.run)
        #expect(inserted.count == 20 && inserted.allSatisfy(\.isNew) && inserted.allSatisfy { $0.classification != nil })

        let first = try #require(try catalogue.image(inserted[3].image))
        #expect(first.sha256 == batch[3].sha256 && first.width == batch[3].width && first.format == batch[3].format)
        #expect(try catalogue.thumbnail(of: first.id) == batch[3].thumbnail)
        #expect(try catalogue.image(sha256: batch[3].sha256)?.id == first.id)
        #expect(try catalogue.image(path: batch[3].file!.path)?.id == first.id)

        let history = try catalogue.history(of: first.id)
        #expect(history.count == 1)
        let stored = history[0].classification
        #expect(stored.logits == batch[3].classification!.logits)  // 40 bytes of float32, bit for bit
        #expect(stored.label == batch[3].classification!.label && stored.run == setup.run && stored.model == setup.model)
        #expect(history[0].command == "import" && history[0].modelName == "clothing")
        let raw = try catalogue.database.rows("SELECT logits FROM classifications WHERE id = :id", [":id": stored.id]) { $0.blob(0) }
        let firstLogit = batch[3].classification!.logits[0].bitPattern
        #expect(raw[0].count == 40 && raw[0][0] == UInt8(firstLogit & 0xff) && raw[0][3] == UInt8(firstLogit >> 24))
    }

    @Test(arguments: EngineParityTests.engines)
    func aKnownHashIsNotStoredTwiceButItsNewPathIs(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let original = Synthetic.image(1)
        let first = try setup.insert([original])[0]
        var renamed = original
        renamed.file = SeenFile(path: "/elsewhere/renamed.jpg", size: 5, modificationTimeNanoseconds: 9)
        let second = try setup.insert([renamed])[0]
        #expect(second.image == first.image && !second.isNew)
        #expect(second.classification == nil)  // already classified by this run
        #expect(try catalogue.stats().images == 1)
        #expect(Set(try catalogue.paths(of: first.image).map(\.path)) == [original.file!.path, "/elsewhere/renamed.jpg"])
    }

    @Test(arguments: EngineParityTests.engines)
    func pathStateDecidesWhatCanBeSkipped(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let image = Synthetic.image(7)
        let id = try setup.insert([image])[0].image
        let known = try #require(try catalogue.knownPath(image.file!.path))
        #expect(known.image == id && known.isUnchanged(image.file!))
        var touched = image.file!
        touched.modificationTimeNanoseconds += 1
        #expect(!known.isUnchanged(touched))
        #expect(try catalogue.knownPath("/never/seen.jpg") == nil)
        // A copy recognised by its hash is recorded for the same image.
        try setup.insert([Synthetic.copy(of: image, at: "/copy.jpg")])
        #expect(try catalogue.knownPath("/copy.jpg")?.image == id)
    }

    @Test(arguments: EngineParityTests.engines)
    func aBadItemRollsTheWholeBatchBack(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        var batch = (0..<5).map { Synthetic.image($0) }
        batch[4].classification?.logits = [1, 2, 3]
        #expect(throws: CatalogueError.invalidArgument("a classification has 10 logits, got 3")) {
            try setup.insert(batch)
        }
        batch[4] = Synthetic.image(4)
        batch[4].width = -1  // refused by the schema half-way through the batch
        #expect(throws: CatalogueError.self) { try setup.insert(batch) }
        #expect(try catalogue.stats().images == 0)
        #expect(try catalogue.stats().paths == 0)
        #expect(throws: CatalogueError.notFound("no run with id 42 in \(catalogue.path)")) {
            try catalogue.writing(run: RunID(42)) { batch in
                try batch.insertImages([Synthetic.image(1)], known: .isClassifiedAgain)
                return RunCounts()
            }
        }
        #expect(try catalogue.stats().images == 0, "nothing is stored under a run that does not exist")
    }

    @Test(arguments: EngineParityTests.engines)
    func registeringAModelTwiceGivesTheSameID(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        #expect(try catalogue.registerModel(Synthetic.model()) == setup.model)
        let other = try catalogue.registerModel(Synthetic.model(2))
        #expect(other != setup.model)
        let record = try #require(try catalogue.model(setup.model))
        #expect(record.labels == Synthetic.labels && record.version == "1.1" && record.parameterCount == 100_001)
        #expect(try catalogue.models().first { $0.sha256 == Synthetic.model(2).sha256 }?.id == other)
        #expect(try catalogue.models().count == 2)
    }

    @Test func runsAreOpenedAndClosedWithTheirCounts() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        let start = try #require(try catalogue.run(setup.run))
        #expect(start.finishedAt == nil && start.recipe == Recipe(name: "fashion-mnist", version: 1))
        let counts = RunCounts(seen: 10, imported: 7, classified: 7, skipped: 2, failed: 1)
        try catalogue.closeRun(setup.run, counts: counts, at: Date(timeIntervalSince1970: 1_800_000_000))
        let end = try #require(try catalogue.runs().first)
        #expect(end.counts == counts && end.finishedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(throws: CatalogueError.self) { try catalogue.closeRun(RunID(77), counts: counts) }
        #expect(throws: CatalogueError.self) {
            try catalogue.openRun(command: "import", model: ModelID(77), recipe: Recipe(name: "x", version: 1))
        }
    }

    @Test func failuresAreRecordedAndListedNewestFirst() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.recordFailure(path: "/a.jpg", reason: "truncated JPEG", run: setup.run)
        try catalogue.recordFailure(path: "/b.txt", reason: "not an image")
        #expect(try catalogue.failures().map(\.path) == ["/b.txt", "/a.jpg"])
        #expect(try catalogue.failures(run: setup.run).map(\.reason) == ["truncated JPEG"])
        #expect(try catalogue.failures(limit: 1).count == 1)
        #expect(try catalogue.stats().failures == 2)
    }

    @Test(.enabled(if: TestPostgres.isInstalled, "PostgreSQL is not installed (make deps installs it)"))
    func classificationsCanNeverBeChangedOrDeletedOnAServer() throws {
        let setup = try CorrectionTests.Filled(.postgresql, images: 1)
        defer { setup.opened.directory.remove() }
        let database = try #require(setup.opened.location.split(separator: "/").last).description
        let postgres = try TestPostgres.shared()
        #expect(throws: (any Error).self) { try postgres.psql(database, "UPDATE classifications SET label = 0") }
        #expect(throws: (any Error).self) { try postgres.psql(database, "DELETE FROM classifications") }
        #expect(try setup.catalogue.stats().classifications == 1)
        #expect(try postgres.psql(database, "SELECT count(*) FROM classifications").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func classificationsCanNeverBeChangedOrDeleted() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.catalogue.insertImages([Synthetic.image(1)], run: setup.run)
        #expect(throws: CatalogueError.self) {
            try setup.catalogue.database.execute("UPDATE classifications SET label = 0")
        }
        #expect(throws: CatalogueError.self) {
            try setup.catalogue.database.execute("DELETE FROM classifications")
        }
        #expect(try setup.catalogue.stats().classifications == 1)
    }
}
