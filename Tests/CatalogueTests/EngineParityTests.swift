import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// The storage protocol's behaviour on both engines: the same writes, through
/// `CatalogueStore` only, give the same answers from an SQLite file and from a
/// PostgreSQL database on a real server (`TestPostgres`).
@Suite struct EngineParityTests {
    enum Engine: String, CaseIterable, CustomStringConvertible, Sendable {
        case sqlite, postgresql
        var description: String { rawValue }
    }

    /// Both engines when PostgreSQL is installed; SQLite alone otherwise (see `postgresqlIsThere`).
    static let engines: [Engine] = TestPostgres.isInstalled ? Engine.allCases : [.sqlite]

    /// A new, empty catalogue on `engine`, opened through the one place that names engines.
    struct Opened {
        let store: any CatalogueStore
        let location: String
        let directory: TemporaryDirectory

        init(_ engine: Engine) throws {
            directory = try TemporaryDirectory()
            location = engine == .sqlite ? directory.path("wardrobe.sqlite") : try TestPostgres.shared().newDatabase()
            store = try CatalogueStorage.open(location, access: .create)
        }
    }

    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    @Test(.enabled(if: TestPostgres.isInstalled,
                   "PostgreSQL is not installed (make deps installs it): the tests against PostgreSQL are skipped"))
    func postgresqlIsThere() throws {
        let url = try TestPostgres.shared().newDatabase()
        #expect(CatalogueStorage.isServer(url))
        let store = try CatalogueStorage.open(url, access: .create)
        #expect(store is PostgresCatalogue && store.path == url)
    }

    /// What one session of use writes: imports in two runs, a reclassification by another
    /// model, a person's acts, a failure, a look at paths, an adoption.
    static func write(_ store: any CatalogueStore) throws {
        let first = try store.registerModel(Synthetic.model(1), at: start)
        let run = try store.openRun(command: "import", model: first, recipe: Recipe(name: "photo", version: 4),
                                    counts: RunCounts(), at: start)
        try store.writing(run: run, at: start) { batch in
            // Every third photo says when it was taken, every sixth with its offset from UTC.
            let inserted = try batch.insertImages((0..<30).map { index in
                var image = Synthetic.image(index)
                if index % 3 == 0 {
                    image.taken = TakenTime(clock: start.addingTimeInterval(Double(index) * -86_400),
                                            offsetMinutes: index % 6 == 0 ? -330 : nil)
                }
                // Every other photo was measured at import: blue, navy or multicolour in turn.
                if index % 2 == 0 {
                    let main = ["blue", "navy", "multicolour"][index / 2 % 3]
                    image.colours = StoredColours(main: main, shares: [
                        .init(name: main == "multicolour" ? "red" : main, share: 0.625, lightness: 31.25, a: -2.5, b: -30.25),
                        .init(name: "grey", share: 0.25, lightness: 60, a: 0.5, b: -1),
                    ], onGarment: index % 8 != 0)
                }
                return image
            }, known: .isClassifiedAgain)
            #expect(inserted.allSatisfy { $0.isNew })
            try batch.recordFailure(path: "/photos/broken.jpg", reason: "not a JPEG", file: nil)
            return RunCounts(seen: 31, imported: 30, classified: 30, skipped: 0, failed: 1)
        }
        try store.writing(run: run, at: start.addingTimeInterval(1)) { batch in
            // The same content under a second name is one image with two paths.
            var copy = Synthetic.image(3)
            copy.file = SeenFile(path: "/photos/copies/three.jpg", size: 7, modificationTimeNanoseconds: 9)
            let again = try batch.insertImages([copy], known: .isClassifiedAgain)
            #expect(again.map(\.isNew) == [false] && again[0].classification == nil)
            try batch.recordFailure(path: "/photos/broken.jpg", reason: "still not a JPEG", file: nil)
            return RunCounts(seen: 33, imported: 30, classified: 30, skipped: 1, failed: 2)
        }
        try store.closeRun(run, counts: RunCounts(seen: 33, imported: 30, classified: 30, skipped: 1, failed: 2),
                           outcome: .finished, at: start.addingTimeInterval(2))
        let second = try store.registerModel(Synthetic.model(2), at: start.addingTimeInterval(3))
        let rerun = try store.openRun(command: "reclassify", model: second, recipe: Recipe(name: "photo", version: 4),
                                      counts: RunCounts(), at: start.addingTimeInterval(3))
        try store.writing(run: rerun, at: start.addingTimeInterval(4)) { batch in
            try batch.addClassifications((0..<20).map { (ImageID(Int64($0 + 1)), Synthetic.classification($0, variant: 1)) })
            return RunCounts(seen: 20, imported: 0, classified: 20, skipped: 0, failed: 0)
        }
        try store.closeRun(rerun, counts: RunCounts(seen: 20, imported: 0, classified: 20, skipped: 0, failed: 0),
                           outcome: .finished, at: start.addingTimeInterval(5))
        let moment = start.addingTimeInterval(6)
        _ = try store.correct([ImageID(1), ImageID(2), ImageID(25)], .label(4), command: "label", at: moment)
        _ = try store.correct([ImageID(2)], .clear, command: "label", at: moment)
        _ = try store.correct([ImageID(5)], .confirm, command: "serve", at: moment)
        _ = try store.correct([ImageID(6)], .label(Catalogue.noneLabel), command: "serve", at: moment)
        // A person's colours: two images green, then one of them taken back.
        _ = try store.setColour([ImageID(2), ImageID(8)], "green", command: "colour", at: moment)
        _ = try store.setColour([ImageID(8)], nil, command: "serve", at: moment)
        _ = try store.recordLook(present: ["/photos/0000001.jpg"], missing: ["/photos/0000002.jpg", "/photos/0000003.jpg"],
                                 dropMissing: false, at: start.addingTimeInterval(7))
        try store.recordCaptureTime(TakenTime(clock: start.addingTimeInterval(-3_600), offsetMinutes: 60), of: ImageID(2))
        try store.recordCaptureTime(nil, of: ImageID(3))
        try store.recordColours(StoredColours(main: "white", shares: [.init(name: "white", share: 1, lightness: 92.5, a: 0, b: 1.5)],
                                              onGarment: true), of: ImageID(4))
        _ = try store.adoptModel(second, file: [0, 1, 2, 255], sourcePath: "/models/mine.aimodel", command: "model use",
                             at: start.addingTimeInterval(8))
    }

    /// Everything the use cases read back, as comparable values.
    static func answers(_ store: any CatalogueStore) throws -> [String] {
        var answers: [String] = []
        func note(_ what: String, _ value: Any) { answers.append("\(what): \(value)") }
        // Means are rounded: the engines add in their own order.
        let stats = try store.stats()
        note("stats", [stats.images, stats.paths, stats.missingPaths, stats.classifications, stats.failures, stats.models,
                       stats.runs, stats.interruptedRuns, stats.corrections, stats.corrected])
        note("stats by label", stats.labels.map { "\($0.label): \($0.count), \($0.meanConfidence.map { ($0 * 1e9).rounded() } as Any)" })
        note("stats agreement", stats.agreement)
        note("label counts", try store.labelCounts().sorted { $0.key < $1.key })
        note("colour counts", try store.stats().colours)
        for order in [ClassificationQuery.Order.confidenceDescending, .confidenceAscending, .imageID, .effectiveLabel,
                      .newestImported, .newestTaken] {
            var listed: [CurrentClassification] = []
            try store.forEachCurrentClassification(ClassificationQuery(order: order, limit: 12, offset: 3)) { listed.append($0) }
            note("listing \(order)", listed)
        }
        for query in [ClassificationQuery(label: 4), ClassificationQuery(corrected: true), ClassificationQuery(missing: true),
                      ClassificationQuery(pathPattern: "/photos/copies/*"), ClassificationQuery(pathPattern: "*/000001[0-5].jpg"),
                      ClassificationQuery(confidence: 0.2...0.6), ClassificationQuery(model: ModelID(1)),
                      ClassificationQuery(ImageSelection(folder: "/photos/copies")),
                      ClassificationQuery(ImageSelection(taken: start.addingTimeInterval(-10 * 86_400)..<start)),
                      ClassificationQuery(ImageSelection(colours: ["blue"])),
                      ClassificationQuery(ImageSelection(colours: ["navy", "blue", "white"])),
                      ClassificationQuery(ImageSelection(colours: ["green"]))] {
            note("count \(query)", try store.countCurrentClassifications(query))
            var listed: [ImageID] = []
            try store.forEachCurrentClassification(query) { listed.append($0.image) }
            note("listed \(query)", listed)
        }
        note("awaiting colours", try store.imagesAwaitingColours(after: ImageID(5), limit: 4, again: false))
        note("awaiting colours again", try store.imagesAwaitingColours(after: ImageID(5), limit: 4, again: true))
        note("image 4", try store.image(ImageID(4)) as Any)
        for order in GalleryQuery.Order.allCases {
            let page = try store.galleryPage(GalleryQuery(order: order, limit: 7))
            note("gallery \(order)", page.map(\.image))
            if let last = page.last {
                let next = GalleryQuery(order: order, after: .init(confidence: last.confidence, image: last.image), limit: 7)
                note("gallery \(order) next", try store.galleryPage(next).map(\.image))
            }
            note("gallery \(order) label 4", try store.galleryPage(GalleryQuery(label: 4, order: order)).map(\.image))
        }
        for id in [1, 2, 3, 5, 6, 8, 29].map({ ImageID(Int64($0)) }) {
            note("image \(id)", try store.image(id) as Any)
            note("history \(id)", try store.history(of: id))
            note("corrections \(id)", try store.corrections(of: id))
            note("colour corrections \(id)", try store.colourCorrections(of: id))
            note("paths \(id)", try store.paths(of: id))
            note("thumbnail \(id)", try store.thumbnail(of: id) as Any)
            note("current \(id)", try store.currentClassification(of: id) as Any)
        }
        note("awaiting capture times", try store.imagesAwaitingCaptureTime(after: nil, limit: 100))
        note("by path", try store.image(path: "/photos/copies/three.jpg")?.id as Any)
        note("by prefix", try store.image(hashPrefix: Synthetic.digest(7).hex.prefix(6).description)?.id as Any)
        note("known under /photos/copies", try store.knownPaths(under: "/photos/copies"))
        note("failing", try store.failingFiles())
        note("candidates", try store.reclassificationCandidates(ReclassificationFilter(label: 4)))
        note("candidates by id", try store.reclassificationCandidates(ReclassificationFilter(images: [ImageID(3), ImageID(9)])))
        note("pairs", try store.personLabelPairs().map { "\($0.model)->\($0.person): \($0.images)" })
        note("unlabelled", try store.unlabelledImageIDs())
        var labelled: [LabelledImage] = []
        try store.forEachLabelledImage { labelled.append($0) }
        note("labelled", labelled)
        note("models", try store.models())
        note("standings", try store.modelStandings())
        note("adopted", try store.adoptedModel() as Any)
        note("adopted file", try store.adoptedModel().map { try store.adoptedModelFile($0.id) } as Any)
        var everything = 0
        try store.forEachClassificationWithHash { _, _ in everything += 1 }
        note("every classification", everything)
        return answers
    }

    @Test func bothEnginesGiveTheSameAnswers() throws {
        guard TestPostgres.isInstalled else { return }
        let sqlite = try Opened(.sqlite), postgresql = try Opened(.postgresql)
        defer { sqlite.directory.remove(); postgresql.directory.remove() }
        try Self.write(sqlite.store)
        try Self.write(postgresql.store)
        let expected = try Self.answers(sqlite.store), found = try Self.answers(postgresql.store)
        #expect(expected.count == found.count)
        for (one, other) in zip(expected, found) { #expect(one == other) }
    }

    /// Colours kept at import and recorded later read back as written, with their CIELAB
    /// values; a selection by colour names takes exactly the images measured so.
    @Test(arguments: engines)
    func garmentColoursAreKeptAndChosenBy(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        let image = try #require(try store.image(ImageID(3)))
        #expect(image.colours == StoredColours(main: "navy", shares: [
            .init(name: "navy", share: 0.625, lightness: 31.25, a: -2.5, b: -30.25),
            .init(name: "grey", share: 0.25, lightness: 60, a: 0.5, b: -1),
        ], onGarment: true))
        #expect(try store.image(ImageID(4))?.colours?.main == "white")
        #expect(try store.image(ImageID(2))?.colours == nil)
        var blue: [ImageID] = [], navyOrWhite: [ImageID] = []
        try store.forEachCurrentClassification(ClassificationQuery(ImageSelection(colours: ["blue"]))) { blue.append($0.image) }
        try store.forEachCurrentClassification(ClassificationQuery(ImageSelection(colours: ["navy", "white"]))) {
            #expect($0.colours != nil)
            navyOrWhite.append($0.image)
        }
        // Image n is photo n - 1: blue at 0, 6, 12, ...; navy at 2, 8, 14, ...; image 4 white.
        #expect(blue.sorted() == stride(from: 1, through: 30, by: 6).map { ImageID(Int64($0)) })
        #expect(navyOrWhite.sorted() == ([4] + Array(stride(from: 3, through: 30, by: 6))).sorted().map { ImageID(Int64($0)) })
        // Every odd photo waits to be measured, except image 4, recorded since; measured again,
        // every image does.
        #expect(try store.imagesAwaitingColours(after: nil, limit: 100, again: false)
                == (1...15).map { ImageID(Int64(2 * $0)) }.filter { $0 != ImageID(4) })
        #expect(try store.imagesAwaitingColours(after: ImageID(27), limit: 100, again: true) == [28, 29, 30].map { ImageID(Int64($0)) })
        // The rule that measured them: none recorded, then the latest recorded.
        #expect(try store.colourRule() == nil)
        try store.recordColourRule(2, at: Self.start)
        try store.recordColourRule(3, at: Self.start)
        #expect(try store.colourRule() == 3)
    }

    /// A model that learned from thousands of images is registered with all of them, once, and
    /// the catalogue's images among them are found (on a server, a thousand a statement: one a
    /// statement made a reclassification with a model of 200,000 wait 13 s before its first image).
    @Test(arguments: engines)
    func manyLearnedImagesAreRegisteredAndFound(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        let stored = (0..<30).map { Synthetic.image($0).sha256 }
        var model = Synthetic.model(7)
        model.learnedImages = stored + (1_000..<3_470).map { Synthetic.digest($0, salt: 0x1EA2) }
        let id = try store.registerModel(model, at: Self.start)
        #expect(try store.registerModel(model, at: Self.start) == id)
        let found = try store.imageIDs(withSHA256: model.learnedImages)
        #expect(found == Set(try stored.map { try #require(try store.image(sha256: $0)).id }))
        #expect(found.count == 30)
    }

    /// Fingerprints kept at import and recorded later read back bit for bit (the high bit
    /// too), with each image's chosen colour; the images awaiting them are those without.
    @Test(arguments: engines)
    func fingerprintsAreKept(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        let model = try #require(try store.models().first).id
        let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4),
                                    counts: RunCounts(), at: Self.start)
        // The second without crops: imported before they were taken, it awaits them.
        let fingerprints = [StoredFingerprint(whole: 0xF0F0_0000_FFFF_0001, garment: 0x8000_0000_0000_0000,
                                              crops: (0..<10).map { UInt64.max - $0 }, garmentCrops: (0..<10).map { 0x8000 | $0 }),
                            StoredFingerprint(whole: 0x0000_0000_0000_0003, garment: nil)]
        try store.writing(run: run, at: Self.start) { batch in
            let inserted = try batch.insertImages((0..<2).map { index in
                var image = Synthetic.image(100 + index)
                image.fingerprint = fingerprints[index]
                image.colours = StoredColours(main: "red", shares: index == 0 ? [.init(name: "red", share: 1, lightness: 45, a: 60, b: -35.5)] : [],
                                              onGarment: true)
                return image
            }, known: .isClassifiedAgain)
            #expect(inserted.map(\.image) == [ImageID(31), ImageID(32)])
            return RunCounts(seen: 2, imported: 2, classified: 2, skipped: 0, failed: 0)
        }
        try store.closeRun(run, counts: RunCounts(seen: 2, imported: 2, classified: 2, skipped: 0, failed: 0),
                           outcome: .finished, at: Self.start)
        #expect(try store.imagesAwaitingFingerprint(after: nil, limit: 100) == (1...30).map { ImageID(Int64($0)) } + [ImageID(32)])
        #expect(try store.imagesAwaitingFingerprint(after: ImageID(28), limit: 1) == [ImageID(29)])
        let recorded = StoredFingerprint(whole: UInt64.max, garment: 7, crops: (0..<10).map { 0x8000_0000_0000_0000 | UInt64($0) << 8 },
                                         garmentCrops: (0..<10).map { 7 | UInt64($0) << 60 })
        try store.recordFingerprint(recorded, of: ImageID(3))
        // A garment without its crops (taken before they were kept) still awaits them; none without a garment.
        try store.recordFingerprint(StoredFingerprint(whole: 1, garment: 2, crops: recorded.crops), of: ImageID(4))
        try store.recordFingerprint(StoredFingerprint(whole: 1, garment: nil, crops: recorded.crops), of: ImageID(5))
        // With the CIELAB mean of the largest colour, which duplicates' colour guard compares.
        let three = try store.image(ImageID(3))?.colours, four = try store.image(ImageID(4))?.colours
        let five = try store.image(ImageID(5))?.colours
        #expect(try store.fingerprintedImages() == [
            FingerprintedImage(id: ImageID(3), fingerprint: recorded, colour: three?.main,
                               lab: three?.shares.first.map { [$0.lightness, $0.a, $0.b] }),
            FingerprintedImage(id: ImageID(4), fingerprint: StoredFingerprint(whole: 1, garment: 2, crops: recorded.crops),
                               colour: four?.main, lab: four?.shares.first.map { [$0.lightness, $0.a, $0.b] }),
            FingerprintedImage(id: ImageID(5), fingerprint: StoredFingerprint(whole: 1, garment: nil, crops: recorded.crops),
                               colour: five?.main, lab: five?.shares.first.map { [$0.lightness, $0.a, $0.b] }),
            FingerprintedImage(id: ImageID(31), fingerprint: fingerprints[0], colour: "red", lab: [45, 60, -35.5]),
            FingerprintedImage(id: ImageID(32), fingerprint: fingerprints[1], colour: "red"),
        ])
        #expect(try store.imagesAwaitingFingerprint(after: nil, limit: 100) == ([1, 2, 4] + Array(6...30)).map { ImageID(Int64($0)) } + [ImageID(32)])
    }

    /// A dismissal keeps every pair of its images once (a second one of some of them changes
    /// nothing), reads back the same, and the pairs go with a forgotten image.
    @Test(arguments: engines)
    func dismissedPairsAreKeptOnceAndGoWithAForgottenImage(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        try store.dismissDuplicates([ImageID(12), ImageID(3), ImageID(7), ImageID(3)], at: Self.start)
        try store.dismissDuplicates([ImageID(3), ImageID(7)], at: Self.start.addingTimeInterval(5))
        #expect(try store.dismissedPairs() == [DismissedPair(ImageID(3), ImageID(7)), DismissedPair(ImageID(3), ImageID(12)),
                                              DismissedPair(ImageID(7), ImageID(12))])
        _ = try store.forget([ImageID(7)])
        #expect(try store.dismissedPairs() == [DismissedPair(ImageID(3), ImageID(12))])
        #expect(throws: (any Error).self) { try store.dismissDuplicates([ImageID(3), ImageID(999)], at: Self.start) }
        #expect(try store.dismissedPairs() == [DismissedPair(ImageID(3), ImageID(12))])
    }

    /// A person's colour outranks the measured one in every selection; measuring again, a
    /// re-import and a reclassification leave it as it is; the latest act wins, every act is
    /// kept, and forgetting the image removes them.
    @Test(arguments: engines)
    func aPersonsColourOutranksTheMeasuredOneAndNoRunChangesIt(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        func chosen(_ names: [String]) throws -> [ImageID] {
            var images: [ImageID] = []
            try store.forEachCurrentClassification(ClassificationQuery(ImageSelection(colours: names))) { images.append($0.image) }
            #expect(try store.countCurrentClassifications(ClassificationQuery(ImageSelection(colours: names))) == images.count)
            return images.sorted()
        }
        #expect(try chosen(["green"]) == [ImageID(2)])
        // Image 3 was measured navy; a person says red, then black: the latest wins.
        let first = try store.setColour([ImageID(3)], "red", command: "colour", at: Self.start.addingTimeInterval(10))
        #expect(first.map(\.measured) == ["navy"] && first.map(\.personBefore) == [nil] && first.map(\.effectiveAfter) == ["red"])
        let second = try store.setColour([ImageID(3)], "black", command: "serve", at: Self.start.addingTimeInterval(11))
        #expect(second.map(\.effectiveBefore) == ["red"] && second.map(\.effectiveAfter) == ["black"])
        #expect(try chosen(["black"]) == [ImageID(3)] && !chosen(["navy", "red"]).contains(ImageID(3)))
        #expect(try store.currentClassification(of: ImageID(3))?.personColour == "black")
        // Counted by the person's colour: image 2 green, image 3 black, the other measured ones as measured.
        let counts = try store.stats().colours
        #expect(counts.map(\.colour) == ["black", "blue", "green", "multicolour", "navy", "white", nil])
        #expect(counts.map(\.images) == [1, 5, 1, 5, 4, 1, 13] && counts.map(\.byPerson) == [1, 0, 1, 0, 0, 0, 0])
        // Measured again (`colours`), imported again with another measurement, reclassified.
        try store.recordColours(StoredColours(main: "white", shares: [.init(name: "white", share: 1, lightness: 95, a: 0, b: 0)],
                                              onGarment: true), of: ImageID(3))
        let model = try store.registerModel(Synthetic.model(3), at: Self.start.addingTimeInterval(12))
        let run = try store.openRun(command: "reclassify", model: model, recipe: Recipe(name: "photo", version: 4),
                                    counts: RunCounts(), at: Self.start.addingTimeInterval(12))
        try store.writing(run: run, at: Self.start.addingTimeInterval(12)) { batch in
            var again = Synthetic.image(2)
            again.colours = StoredColours(main: "pink", shares: [.init(name: "pink", share: 1, lightness: 70, a: 30, b: 0)],
                                          onGarment: true)
            #expect(try batch.insertImages([again], known: .isClassifiedAgain).map(\.isNew) == [false])
            try batch.addClassifications([(ImageID(3), Synthetic.classification(7, variant: 2))])
            return RunCounts(seen: 1, imported: 0, classified: 1, skipped: 0, failed: 0)
        }
        let image = try #require(try store.image(ImageID(3)))
        #expect(image.personColour == "black" && image.colours?.main == "white")
        #expect(try chosen(["black"]) == [ImageID(3)])
        // Taken back: the measured colour counts again; every act stays, oldest first.
        let cleared = try store.setColour([ImageID(3)], nil, command: "colour", at: Self.start.addingTimeInterval(13))
        #expect(cleared.map(\.personBefore) == ["black"] && cleared.map(\.effectiveAfter) == ["white"])
        #expect(try chosen(["white"]).contains(ImageID(3)) && chosen(["black"]).isEmpty)
        let acts = try store.colourCorrections(of: ImageID(3))
        #expect(acts.map(\.kind) == [.colour, .colour, .clear] && acts.map(\.colour) == ["red", "black", nil]
                && acts.map(\.command) == ["colour", "serve", "colour"])
        #expect(acts.map(\.correctedAt) == [10, 11, 13].map { Self.start.addingTimeInterval($0) })
        // An image that is not there: nothing is written, not even for the images before it.
        #expect(throws: CatalogueError.self) { try store.setColour([ImageID(4), ImageID(999)], "red", command: "colour") }
        #expect(try store.colourCorrections(of: ImageID(4)).isEmpty && store.image(ImageID(4))?.personColour == nil)
        // Forgetting the image removes its acts with it.
        let report = try store.forget([ImageID(3)])
        #expect(try report.colourCorrections == 3 && report.corrections == 0 && store.colourCorrections(of: ImageID(3)).isEmpty)
    }

    @Test(arguments: engines)
    func historyIsNeverRewrittenAndCountsFollowTheEffectiveLabel(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        try Self.write(store)
        // Label counts kept by the triggers agree with a count of the rows.
        var byLabel: [Int: Int] = [:]
        try store.forEachCurrentClassification(ClassificationQuery()) { byLabel[$0.effectiveLabel, default: 0] += 1 }
        #expect(try store.labelCounts().filter { $0.value > 0 } == byLabel)
        #expect(try store.labelCounts()[4] == byLabel[4] && byLabel[4, default: 0] >= 2)
        // The current classification is the latest; a person's label outlives a re-run.
        let history = try store.history(of: ImageID(1))
        #expect(history.count == 2 && history.map(\.command) == ["import", "reclassify"])
        #expect(try store.currentClassification(of: ImageID(1))?.classification == history.last?.classification.id)
        #expect(try store.currentClassification(of: ImageID(1))?.correctedLabel == 4)
        #expect(try store.personLabel(of: ImageID(2)) == nil)  // cleared
        // Forgetting removes an image, its paths, classifications and corrections, and its count.
        let before = try store.labelCounts()[4] ?? 0
        let report = try store.forget([ImageID(1)])
        #expect(report.images == 1 && report.classifications == 2 && report.corrections == 1 && report.paths == 1)
        #expect(try store.image(ImageID(1)) == nil && store.history(of: ImageID(1)).isEmpty)
        #expect(try store.labelCounts()[4] == before - 1)
        #expect((report.serverNote != nil) == (engine == .postgresql))
    }

    @Test(arguments: engines)
    func aBatchThatFailsLeavesNothing(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        let model = try store.registerModel(Synthetic.model(1))
        let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4))
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.writing(run: run) { batch in
                try batch.insertImages((0..<5).map { Synthetic.image($0) }, known: .isClassifiedAgain)
                throw Stop()
            }
        }
        #expect(try store.stats().images == 0 && store.labelCounts().values.allSatisfy { $0 == 0 })
        // A bad value is refused, and the batch with it is rolled back. (A classification of an
        // image not there is not one: forgotten since a run read it, it is passed over.)
        #expect(throws: CatalogueError.self) {
            try store.writing(run: run) { batch in
                let inserted = try batch.insertImages([Synthetic.image(1)], known: .isClassifiedAgain)
                var bad = Synthetic.classification(1)
                bad.confidence = 2
                try batch.addClassifications([(inserted[0].image, bad)])
                return RunCounts()
            }
        }
        #expect(try store.stats().images == 0)
    }

    @Test(arguments: engines)
    func aSecondOpeningFindsTheCatalogueAtTheLatestStep(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        try Self.write(opened.store)
        let reader = try CatalogueStorage.reader(opened.location, lookForDamage: true)
        #expect(try reader.stats() == opened.store.stats())
        #expect(throws: CatalogueError.self) { try reader.correct([ImageID(3)], .label(1), command: "label") }
        let again = try CatalogueStorage.open(opened.location, access: .readWrite)
        #expect(try again.stats().images == 30)
    }
}

extension EngineParityTests {
    /// One batch holding the same content twice (under two names), the same name twice, images
    /// stored before beside new ones, and a path that named another image: each engine answers
    /// as if the images were written one by one, with the same ids.
    @Test func aBatchThatMeetsItselfIsStoredAsOneByOne() throws {
        guard TestPostgres.isInstalled else { return }
        func session(_ store: any CatalogueStore) throws -> [String] {
            let model = try store.registerModel(Synthetic.model(1), at: Self.start)
            let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4),
                                        counts: RunCounts(), at: Self.start)
            var answers: [String] = []
            try store.writing(run: run, at: Self.start) { batch in
                answers.append("\(try batch.insertImages((0..<4).map { Synthetic.image($0) }, known: .isClassifiedAgain))")
                return RunCounts()
            }
            let rerun = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4),
                                          counts: RunCounts(), at: Self.start)
            try store.writing(run: rerun, at: Self.start.addingTimeInterval(1)) { batch in
                var moved = Synthetic.image(10)
                moved.file = Synthetic.image(1).file  // a path that named image 2 now shows new content
                let images = [Synthetic.image(5), Synthetic.copy(of: Synthetic.image(5), at: "/photos/again/five.jpg"),
                              Synthetic.image(2), moved, Synthetic.image(2),
                              Synthetic.copy(of: Synthetic.image(6), at: "/photos/0000005.jpg"),
                              Synthetic.image(6), Synthetic.image(3, classified: false)]
                answers.append("\(try batch.insertImages(images, known: .isClassifiedAgain))")
                answers.append("\(try batch.insertImages([Synthetic.image(7), Synthetic.image(0)], known: .gainsPathOnly))")
                func seen(_ path: String, _ size: Int64) -> SeenFile { SeenFile(path: path, size: size, modificationTimeNanoseconds: size) }
                let recorded = try batch.recordPaths([(seen("/photos/b.jpg", 1), Synthetic.digest(7)),
                                                      (seen("/photos/b.jpg", 2), Synthetic.digest(0)),
                                                      (seen("/photos/c.jpg", 1), Synthetic.digest(99))])
                let added = try batch.addClassifications([(ImageID(1), Synthetic.classification(1, variant: 1)),
                                                          (ImageID(1), Synthetic.classification(1, variant: 2)),
                                                          (ImageID(5), Synthetic.classification(5, variant: 1))])
                answers += ["\(recorded)", "\(added)"]
                return RunCounts()
            }
            return answers + (try Self.answers(store))
        }
        let sqlite = try Opened(.sqlite), postgresql = try Opened(.postgresql)
        defer { sqlite.directory.remove(); postgresql.directory.remove() }
        let expected = try session(sqlite.store), found = try session(postgresql.store)
        #expect(expected.count == found.count)
        for (one, other) in zip(expected, found) { #expect(one == other) }
    }
}
