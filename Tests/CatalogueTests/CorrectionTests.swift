import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// A person's labels: every act kept, the latest winning, and the effective
/// label (the person's, else the model's) answering every query. All but the
/// index test run on both engines, through the storage protocol only.
@Suite struct CorrectionTests {
    typealias Setup = CatalogueStoreTests.Setup
    typealias Engine = EngineParityTests.Engine

    /// A new catalogue on `engine` with a model, an open run and `count` classified images.
    struct Filled {
        let opened: EngineParityTests.Opened
        let model: ModelID
        let run: RunID
        var catalogue: any CatalogueStore { opened.store }

        init(_ engine: Engine, images count: Int = 0) throws {
            opened = try EngineParityTests.Opened(engine)
            model = try opened.store.registerModel(Synthetic.model())
            run = try opened.store.openRun(command: "import", model: model, recipe: Recipe(name: "fashion-mnist", version: 1))
            if count > 0 { try insert((0..<count).map { Synthetic.image($0) }) }
        }

        @discardableResult
        func insert(_ images: [NewImage]) throws -> [InsertedImage] {
            var inserted: [InsertedImage] = []
            try catalogue.writing(run: run) { batch in
                inserted = try batch.insertImages(images, known: .isClassifiedAgain)
                return RunCounts()
            }
            return inserted
        }

        func classify(_ items: [(image: ImageID, classification: NewClassification)], run: RunID? = nil) throws {
            try catalogue.writing(run: run ?? self.run) { batch in
                try batch.addClassifications(items)
                return RunCounts()
            }
        }
    }

    func filled(_ count: Int) throws -> Setup {
        let setup = try Setup()
        try setup.catalogue.insertImages((0..<count).map { Synthetic.image($0) }, run: setup.run)
        return setup
    }

    /// Every count by label agrees with the classifications listed under it.
    static func expectLabelCountsMatch(_ catalogue: any CatalogueStore) throws {
        var listed = [Int: Int]()
        try catalogue.forEachCurrentClassification(ClassificationQuery()) { listed[$0.effectiveLabel, default: 0] += 1 }
        for label in 0...Catalogue.noneLabel {
            #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: label)) == listed[label, default: 0],
                    "label \(label)")
        }
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery()) == listed.values.reduce(0, +))
    }

    @Test(arguments: EngineParityTests.engines)
    func aCorrectedImageIsListedAndCountedUnderItsNewLabelOnly(engine: Engine) throws {
        let setup = try Filled(engine, images: 200)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let coats = try catalogue.currentClassifications(ClassificationQuery(label: 4))
        let moved = try #require(coats.first)
        let coatsBefore = try catalogue.countCurrentClassifications(ClassificationQuery(label: 4))
        let bagsBefore = try catalogue.countCurrentClassifications(ClassificationQuery(label: 8))

        let outcome = try catalogue.correct([moved.image], .label(8), command: "label")
        #expect(outcome.map(\.image) == [moved.image] && outcome.map(\.modelLabel) == [4])
        #expect(outcome.map(\.effectiveBefore) == [4] && outcome.map(\.effectiveAfter) == [8])
        #expect(try !catalogue.currentClassifications(ClassificationQuery(label: 4)).contains { $0.image == moved.image })
        let bag = try #require(try catalogue.currentClassifications(ClassificationQuery(label: 8)).first { $0.image == moved.image })
        #expect(bag.label == 4 && bag.correctedLabel == 8 && bag.effectiveLabel == 8)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: 4)) == coatsBefore - 1)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: 8)) == bagsBefore + 1)
        try Self.expectLabelCountsMatch(catalogue)

        // A re-run by any model keeps the person's label effective.
        let run2 = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: Recipe(name: "photo", version: 1))
        try setup.classify([(moved.image, NewClassification(logits: (0..<10).map { Float($0) }, label: 9, confidence: 0.9))],
                           run: run2)
        let after = try #require(try catalogue.currentClassifications(ClassificationQuery(label: 8)).first { $0.image == moved.image })
        #expect(after.label == 9 && after.correctedLabel == 8)
        try Self.expectLabelCountsMatch(catalogue)
        let stats = try catalogue.stats()
        #expect(stats.agreement.map { [$0.label, $0.labelled, $0.agreed] } == [[8, 1, 0]])
        #expect(stats.corrected == 1 && stats.corrections == 1)
    }

    @Test(arguments: EngineParityTests.engines)
    func noneConfirmAndClearAreActsOfTheirOwn(engine: Engine) throws {
        let setup = try Filled(engine, images: 50)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let image = ImageID(7)
        let model = try #require(try catalogue.currentClassifications(ClassificationQuery(order: .imageID)).first { $0.image == image }).label
        let day = { (n: Double) in Date(timeIntervalSince1970: 1_750_000_000 + n) }
        try catalogue.correct([image], .label(Catalogue.noneLabel), command: "label", at: day(1))
        #expect(try catalogue.currentClassifications(ClassificationQuery(label: Catalogue.noneLabel)).map(\.image) == [image])
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: Catalogue.noneLabel)) == 1)
        #expect(try catalogue.stats().agreement.isEmpty, "none is no label to agree with")
        try catalogue.correct([image], .confirm, command: "serve", at: day(2))
        #expect(try catalogue.personLabel(of: image) == model)
        #expect(try catalogue.stats().agreement.map { [$0.label, $0.labelled, $0.agreed] } == [[model, 1, 1]])
        let cleared = try catalogue.correct([image], .clear, command: "label", at: day(3))
        #expect(cleared.first?.effectiveAfter == model && cleared.first?.personAfter == nil)
        #expect(try catalogue.personLabel(of: image) == nil)
        #expect(try catalogue.personLabelPairs().isEmpty)
        let acts = try catalogue.corrections(of: image)
        #expect(acts.map(\.kind) == [.label, .confirm, .clear])
        #expect(acts.map(\.command) == ["label", "serve", "label"])
        #expect(acts.map(\.label) == [Catalogue.noneLabel, model, nil])
        #expect(acts.map(\.correctedAt) == [day(1), day(2), day(3)])
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: Catalogue.noneLabel)) == 0)
        try Self.expectLabelCountsMatch(catalogue)
        #expect(throws: CatalogueError.self) { try catalogue.correct([image], .label(11), command: "label") }
        #expect(throws: CatalogueError.self) { try catalogue.correct([ImageID(999)], .label(1), command: "label") }
    }

    @Test(arguments: EngineParityTests.engines)
    func anImageLabelledBeforeItsFirstClassificationKeepsTheLabel(engine: Engine) throws {
        let setup = try Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let inserted = try setup.insert([Synthetic.image(1, classified: false)])
        let image = inserted[0].image
        #expect(throws: CatalogueError.self) { try catalogue.correct([image], .confirm, command: "label") }
        try catalogue.correct([image], .label(3), command: "label")
        try setup.classify([(image, Synthetic.classification(1))])
        let listed = try catalogue.currentClassifications(ClassificationQuery())
        #expect(listed.map(\.effectiveLabel) == [3])
        try Self.expectLabelCountsMatch(catalogue)
    }

    @Test(arguments: EngineParityTests.engines)
    func learningGetsEveryLabelledOrConfirmedImageWithItsThumbnailButNotNone(engine: Engine) throws {
        let setup = try Filled(engine, images: 20)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.correct([ImageID(2)], .label(5), command: "label")
        try catalogue.correct([ImageID(3)], .confirm, command: "label")
        try catalogue.correct([ImageID(4)], .label(Catalogue.noneLabel), command: "label")
        try catalogue.correct([ImageID(5)], .label(1), command: "label")
        try catalogue.correct([ImageID(5)], .clear, command: "label")
        var examples: [LabelledImage] = []
        try catalogue.forEachLabelledImage { examples.append($0) }
        #expect(examples.map(\.image) == [ImageID(2), ImageID(3)])
        #expect(examples.map(\.kind) == [.label, .confirm])
        #expect(examples[0].label == 5 && examples[0].thumbnail == Synthetic.image(1).thumbnail)
        #expect(examples[0].sha256 == Synthetic.image(1).sha256)
    }

    /// A tenth of the images corrected: label queries still walk the
    /// effective-label index, never scan or sort.
    @Test func labelQueriesWithCorrectionsInPlayUseTheIndex() throws {
        let setup = try filled(1_000)
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        let everyTenth = stride(from: 1, through: 1_000, by: 10).map { ImageID(Int64($0)) }
        try catalogue.correct(everyTenth, .label(3), command: "label")
        try catalogue.database.executeScript("ANALYZE")
        for query in [ClassificationQuery(label: 3, limit: 100), ClassificationQuery(label: 3, corrected: true, limit: 100),
                      ClassificationQuery(label: 3, order: .confidenceAscending, limit: 100)] {
            let plan = try catalogue.queryPlan(query)
            #expect(plan.contains { $0.contains("SEARCH c USING INDEX current_by_effective_label_confidence (effective_label=?)") },
                    "\(plan)")
            #expect(!plan.contains { $0.contains("SCAN") || $0.contains("TEMP B-TREE") }, "\(plan)")
        }
        let count = try catalogue.queryPlan(ClassificationQuery(label: 3), counting: true)
        #expect(count.contains { $0.contains("SEARCH label_counts USING PRIMARY KEY (label=?)") }, "\(count)")
        let uncorrectedThrees = Int(try catalogue.database.scalarInt(
            "SELECT count(*) FROM current_classifications WHERE label = 3 AND corrected_label IS NULL") ?? -1)
        #expect(try catalogue.currentClassifications(ClassificationQuery(label: 3)).count == 100 + uncorrectedThrees)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(corrected: true)) == 100)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(corrected: false)) == 900)
        try CatalogueQueryTests.expectLabelCountsMatch(catalogue)
    }
}

extension CatalogueStore {
    /// The classifications a query lists, gathered (what `forEachCurrentClassification` hands over one at a time).
    func currentClassifications(_ query: ClassificationQuery) throws -> [CurrentClassification] {
        var listed: [CurrentClassification] = []
        try forEachCurrentClassification(query) { listed.append($0) }
        return listed
    }
}
