import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Reading the catalogue back: lookups, listings, history, reports.
@Suite struct CatalogueQueryTests {
    typealias Setup = CatalogueStoreTests.Setup

    /// `count` images imported by the setup's run, one batch.
    func filled(_ count: Int, storage: Storage = .file) throws -> (Setup, [NewImage]) {
        let setup = try Setup(storage)
        let images = (0..<count).map { Synthetic.image($0) }
        try setup.catalogue.insertImages(images, run: setup.run)
        return (setup, images)
    }

    @Test(arguments: Storage.allCases)
    func listingByLabelIsSortedFilteredAndPaged(storage: Storage) throws {
        let (setup, images) = try filled(300, storage: storage)
        defer { setup.directory.remove() }
        try Self.expectListingByLabel(setup.catalogue, of: images)
    }

    @Test(.enabled(if: TestPostgres.isInstalled, "PostgreSQL is not installed (make deps installs it)"))
    func listingByLabelIsSortedFilteredAndPagedOnAServer() throws {
        let (setup, images) = try filled(300, engine: .postgresql)
        defer { setup.opened.directory.remove() }
        try Self.expectListingByLabel(setup.catalogue, of: images)
    }

    /// `images` (300, imported in one batch) listed by label: sorted, filtered, paged, counted.
    static func expectListingByLabel(_ catalogue: any CatalogueStore, of images: [NewImage]) throws {
        let label = 4
        let expected = images.filter { $0.classification!.label == label }
            .sorted { $0.classification!.confidence > $1.classification!.confidence }
        #expect(expected.count > 10)

        let top = try catalogue.currentClassifications(ClassificationQuery(label: label, limit: 10))
        #expect(top.map(\.sha256) == expected.prefix(10).map(\.sha256))
        #expect(top.allSatisfy { $0.label == label && $0.path != nil && $0.correctedLabel == nil })
        let next = try catalogue.currentClassifications(ClassificationQuery(label: label, limit: 10, offset: 10))
        #expect(next.map(\.sha256) == expected.dropFirst(10).prefix(10).map(\.sha256))
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: label)) == expected.count)

        let ascending = try catalogue.currentClassifications(ClassificationQuery(label: label, order: .confidenceAscending))
        #expect(ascending.map(\.sha256) == expected.reversed().map(\.sha256))

        let band = 0.3...0.6
        let inBand = expected.filter { band.contains($0.classification!.confidence) }
        let query = ClassificationQuery(label: label, confidence: band)
        #expect(try catalogue.currentClassifications(query).map(\.sha256) == inBand.map(\.sha256))
        #expect(try catalogue.countCurrentClassifications(query) == inBand.count)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery()) == 300)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(model: ModelID(99))) == 0)
    }

    @Test(arguments: EngineParityTests.engines)
    func listingFiltersByDatesAndModel(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let day = { (n: Double) in Date(timeIntervalSince1970: 1_750_000_000 + n * 86_400) }
        for (numbers, date) in [(0..<10, day(0)), (10..<30, day(2))] {
            try catalogue.writing(run: setup.run, at: date) { batch in
                try batch.insertImages(numbers.map { Synthetic.image($0) }, known: .isClassifiedAgain)
                return RunCounts()
            }
        }
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(imported: day(1)..<day(3))) == 20)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(classified: day(-1)..<day(1))) == 10)
        let newest = try catalogue.currentClassifications(ClassificationQuery(order: .newestImported, limit: 1))
        #expect(newest.first?.firstImported == day(2))
        let oldest = try catalogue.currentClassifications(ClassificationQuery(order: .oldestImported, limit: 1))
        #expect(oldest.first?.firstImported == day(0))

        // A second model reclassifies five images: they now belong to it.
        let model2 = try catalogue.registerModel(Synthetic.model(2))
        let run2 = try catalogue.openRun(command: "reclassify", model: model2, recipe: Recipe(name: "photo", version: 1))
        let ids = try catalogue.currentClassifications(ClassificationQuery(order: .imageID, limit: 5)).map(\.image)
        try catalogue.writing(run: run2, at: day(5)) { batch in
            try batch.addClassifications(ids.map { ($0, Synthetic.classification(Int($0.rawValue), variant: 1)) })
            return RunCounts()
        }
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(model: model2)) == 5)
        #expect(try catalogue.countCurrentClassifications(ClassificationQuery(model: setup.model)) == 25)
        let latest = try catalogue.currentClassifications(ClassificationQuery(order: .newestClassified, limit: 5))
        #expect(Set(latest.map(\.image)) == Set(ids) && latest.allSatisfy { $0.model == model2 })
    }

    /// `count` images imported by the run of a new catalogue on `engine`, one batch.
    func filled(_ count: Int, engine: EngineParityTests.Engine) throws -> (CorrectionTests.Filled, [NewImage]) {
        let setup = try CorrectionTests.Filled(engine)
        let images = (0..<count).map { Synthetic.image($0) }
        try setup.insert(images)
        return (setup, images)
    }

    @Test(arguments: EngineParityTests.engines)
    func theLatestClassificationIsCurrentAndHistoryKeepsAll(engine: EngineParityTests.Engine) throws {
        let (setup, images) = try filled(50, engine: engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let run2 = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: Recipe(name: "photo", version: 2))
        let image = try #require(try catalogue.image(sha256: images[0].sha256)).id
        let forced = NewClassification(logits: (0..<10).map { Float($0) }, label: 9, confidence: 0.99)
        var added: [ClassificationID?] = []
        try catalogue.writing(run: run2) { batch in
            added = try batch.addClassifications([(image, forced), (image, forced)])
            return RunCounts()
        }
        #expect(added[0] != nil && added[1] == nil)  // one classification per image per run

        let current = try #require(try catalogue.currentClassifications(ClassificationQuery(label: 9, limit: 1)).first)
        #expect(current.image == image && current.confidence == 0.99 && current.classification == added[0])
        let history = try catalogue.history(of: image)
        #expect(history.map(\.classification.run) == [setup.run, run2])
        #expect(history.map(\.classification.label) == [images[0].classification!.label, 9])
        #expect(history[1].classification.logits == forced.logits && history[1].command == "reclassify")
        #expect(try catalogue.stats().classifications == 51)
        try CorrectionTests.expectLabelCountsMatch(catalogue)
    }

    /// The maintained per-label counts agree with counting the rows.
    static func expectLabelCountsMatch(_ catalogue: Catalogue) throws {
        var total = 0
        for label in 0...Catalogue.noneLabel {
            let counted = try catalogue.database.scalarInt(
                "SELECT count(*) FROM current_classifications WHERE coalesce(corrected_label, label) = :label", [":label": label]) ?? -1
            #expect(try catalogue.countCurrentClassifications(ClassificationQuery(label: label)) == Int(counted))
            total += Int(counted)
        }
        #expect(try catalogue.countCurrentClassifications() == total)
    }

    @Test(arguments: EngineParityTests.engines)
    func hashPrefixesFindOneImageOrSayTheyAreAmbiguous(engine: EngineParityTests.Engine) throws {
        let (setup, images) = try filled(64, engine: engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let hex = images[5].sha256.hex
        #expect(try catalogue.image(hashPrefix: String(hex.prefix(12)))?.sha256 == images[5].sha256)
        #expect(try catalogue.image(hashPrefix: String(hex.prefix(11)).uppercased())?.sha256 == images[5].sha256)
        #expect(try catalogue.image(hashPrefix: hex)?.sha256 == images[5].sha256)
        let firstDigit = String(hex.prefix(1))
        let sharing = images.filter { $0.sha256.hex.hasPrefix(firstDigit) }.count
        #expect(sharing > 1)
        #expect(throws: CatalogueError.ambiguousHashPrefix(prefix: firstDigit, matches: sharing)) {
            try catalogue.image(hashPrefix: firstDigit)
        }
        let unused = (0..<4096).map { String(format: "%03x", $0) }.first { p in !images.contains { $0.sha256.hex.hasPrefix(p) } }!
        #expect(try catalogue.image(hashPrefix: unused) == nil)
        #expect(throws: CatalogueError.self) { try catalogue.image(hashPrefix: "xyz") }
        #expect(throws: CatalogueError.self) { try catalogue.image(hashPrefix: "") }
    }

    @Test func theLabelQueriesUseTheIndexNotAScan() throws {
        let (setup, _) = try filled(200)
        defer { setup.directory.remove() }
        try setup.catalogue.database.executeScript("ANALYZE")
        for query in [ClassificationQuery(label: 3, limit: 50), ClassificationQuery(label: 3, confidence: 0.5...1, limit: 50),
                      ClassificationQuery(label: 3, order: .confidenceAscending, limit: 50)] {
            let plan = try setup.catalogue.queryPlan(query)
            #expect(plan.contains { $0.contains("SEARCH c USING INDEX current_by_effective_label_confidence (effective_label=?") }, "\(plan)")
            #expect(!plan.contains { $0.contains("SCAN") || $0.contains("TEMP B-TREE") }, "\(plan)")
        }
        let count = try setup.catalogue.queryPlan(ClassificationQuery(label: 3), counting: true)
        #expect(count.contains { $0.contains("SEARCH label_counts USING PRIMARY KEY (label=?)") }, "\(count)")
        let filtered = try setup.catalogue.queryPlan(ClassificationQuery(label: 3, confidence: 0.5...1), counting: true)
        #expect(filtered.contains { $0.contains("INDEX current_by_effective_label_confidence (effective_label=? AND confidence>? AND confidence<?)") },
                "\(filtered)")
    }

    /// A page in an order no index gives (every label by confidence, the newest classified,
    /// by label) is chosen from current_classifications before any image, classification or
    /// path is read, so only the page's rows are read whole; sorted whole, every image's row was
    /// read (`list` took 0.43 s on 100,000 images, 0.02 s now). The pages are those of sorting
    /// every image.
    @Test func aPageNoIndexOrdersIsChosenBeforeItsRowsAreRead() throws {
        let (setup, _) = try filled(300)
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.database.executeScript("ANALYZE")
        let queries = [ClassificationQuery(limit: 50), ClassificationQuery(order: .confidenceAscending, limit: 50, offset: 100),
                       ClassificationQuery(order: .newestClassified, limit: 20), ClassificationQuery(order: .effectiveLabel, limit: 30),
                       ClassificationQuery(corrected: false, order: .confidenceDescending, limit: 40, offset: 7),
                       ClassificationQuery(imported: Date.distantPast..<Date.distantFuture, order: .oldestImported, limit: 25)]
        for query in queries {
            let plan = try catalogue.queryPlan(query)
            let chosen = try #require(plan.firstIndex(of: "SCAN page"), "\(plan)")
            #expect(plan.first == "CO-ROUTINE page", "\(plan)")
            #expect(!plan[..<chosen].contains { $0.contains(" k ") || $0.contains("image_paths") }, "\(plan)")
            #expect(plan[chosen...].contains("SEARCH i USING INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
            var whole = query
            (whole.limit, whole.offset) = (nil, 0)
            let expected = Array(try catalogue.currentClassifications(whole).dropFirst(query.offset).prefix(query.limit!))
            #expect(try catalogue.currentClassifications(query) == expected)
        }
        let plan = try catalogue.queryPlan(queries[0])
        #expect(plan.dropFirst().first == "SCAN c USING COVERING INDEX current_by_effective_label_confidence", "\(plan)")
    }

    @Test(arguments: EngineParityTests.engines)
    func statsCountEverythingAndAverageConfidencePerLabel(engine: EngineParityTests.Engine) throws {
        let (setup, images) = try filled(100, engine: engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        try catalogue.writing(run: setup.run) { batch in
            try batch.recordFailure(path: "/junk", reason: "empty file", file: nil)
            return RunCounts()
        }
        let stats = try catalogue.stats()
        #expect(stats.images == 100 && stats.paths == 100 && stats.classifications == 100)
        #expect(stats.failures == 1 && stats.models == 1 && stats.runs == 1 && stats.corrections == 0)
        for entry in stats.labels {
            let ofLabel = images.filter { $0.classification!.label == entry.label }
            #expect(entry.count == ofLabel.count)
            let mean = ofLabel.reduce(0) { $0 + $1.classification!.confidence } / Double(ofLabel.count)
            // Kept as a sum of billionths, each confidence rounded to the nearest.
            #expect(abs((entry.meanConfidence ?? -1) - mean) <= 5e-10)
        }
        #expect(stats.labels.reduce(0) { $0 + $1.count } == 100)
    }

    /// The mean confidence of a label is taken over its images whose label is the model's:
    /// images a person moved in are counted but their confidence is not, images confirmed in
    /// their own label keep theirs, and a label only a person gave has no mean. (The triggers
    /// keep it in `label_counts`, in billionths: see migrations/0015_kept_counts.sql.)
    @Test(arguments: EngineParityTests.engines)
    func aLabelsMeanConfidenceLeavesOutTheImagesAPersonMovedIntoIt(engine: EngineParityTests.Engine) throws {
        let (setup, _) = try filled(200, engine: engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let coats = try catalogue.currentClassifications(ClassificationQuery(label: 4))
        let bags = try catalogue.currentClassifications(ClassificationQuery(label: 8))
        try #require(coats.count >= 4 && bags.count >= 2)
        try catalogue.correct(coats.prefix(3).map(\.image), .label(8), command: "label")
        try catalogue.correct([bags[0].image], .label(8), command: "label")
        try catalogue.correct(bags.suffix(1).map(\.image), .label(Catalogue.noneLabel), command: "label")

        let current = try catalogue.currentClassifications(ClassificationQuery(order: .imageID))
        let stats = try catalogue.stats()
        for entry in stats.labels {
            let ofLabel = current.filter { $0.effectiveLabel == entry.label }
            #expect(entry.count == ofLabel.count, "label \(entry.label)")
            let own = ofLabel.filter { $0.label == entry.label }.map(\.confidence)
            if own.isEmpty {
                #expect(entry.meanConfidence == nil, "label \(entry.label)")
            } else {
                let mean = own.reduce(0, +) / Double(own.count)
                #expect(abs((entry.meanConfidence ?? -1) - mean) <= 5e-10, "label \(entry.label)")
            }
        }
        #expect(stats.labels.contains { $0.label == 8 && $0.count == bags.count - 1 + 3 })
        #expect(stats.labels.contains { $0.label == Catalogue.noneLabel && $0.count == 1 && $0.meanConfidence == nil })
    }

    @Test func exportsStreamEveryRow() throws {
        let (setup, images) = try filled(120)
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        var seen: [SHA256Digest] = []
        try catalogue.forEachCurrentClassification(ClassificationQuery(order: .imageID)) { seen.append($0.sha256) }
        #expect(seen == images.map(\.sha256))
        var labels: [Int] = []
        var hashes: [SHA256Digest] = []
        try catalogue.forEachClassificationWithHash { record, sha256 in
            labels.append(record.label)
            hashes.append(sha256)
            // Other queries may run inside the loop.
            _ = try catalogue.image(record.image)
        }
        #expect(labels == images.map { $0.classification!.label })
        #expect(hashes == images.map(\.sha256))
    }

    @Test func thumbnailsComeInBatchesAndSkipWhatARunHasDone() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        var images = (0..<25).map { Synthetic.image($0) }
        images[3].thumbnail = nil
        try catalogue.insertImages(images, run: setup.run)
        var batches: [[ImageID]] = []
        var after: ImageID?
        while true {
            let batch = try catalogue.thumbnails(after: after, limit: 10)
            guard let last = batch.last else { break }
            batches.append(batch.map(\.image))
            #expect(batch.allSatisfy { $0.thumbnail.count == 64 })
            after = last.image
        }
        #expect(batches.map(\.count) == [10, 10, 4])
        let run2 = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: Recipe(name: "photo", version: 1))
        try catalogue.addClassifications(batches[0].map { ($0, Synthetic.classification(1)) }, run: run2)
        let remaining = try catalogue.thumbnails(limit: 100, notClassifiedBy: run2)
        #expect(remaining.map(\.image) == batches[1] + batches[2])
    }

    @Test(arguments: EngineParityTests.engines)
    func correctionsOutliveLaterRuns(engine: EngineParityTests.Engine) throws {
        let (setup, _) = try filled(10, engine: engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let image = ImageID(1)
        try catalogue.correct([image], .label(8), command: "label", at: Date(timeIntervalSince1970: 1_000))
        try catalogue.correct([image], .label(2), command: "label", at: Date(timeIntervalSince1970: 2_000))
        let run2 = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: Recipe(name: "photo", version: 1))
        try setup.classify([(image, Synthetic.classification(5, variant: 3))], run: run2)
        #expect(try catalogue.personLabel(of: image) == 2)
        #expect(try catalogue.corrections(of: image).map(\.label) == [8, 2])
        #expect(try catalogue.personLabelPairs().reduce(0) { $0 + $1.images } == 1)
        let listed = try catalogue.currentClassifications(ClassificationQuery(order: .imageID, limit: 1))
        #expect(listed.first?.correctedLabel == 2)
        #expect(throws: CatalogueError.self) { try catalogue.correct([image], .label(11), command: "label") }
        #expect(throws: CatalogueError.self) { try catalogue.correct([ImageID(500)], .label(1), command: "label") }
    }
}
