import Catalogue
import CatalogueFixtures
import Foundation
import Synchronization
import Testing

/// The counts `stats` reads as the triggers keep them (`catalogue_counts`, `label_counts`)
/// are the rows' after every kind of write, on both engines: `check` recounts the rows and
/// names any count that differs.
@Suite struct KeptCountsTests {
    typealias Engine = EngineParityTests.Engine
    typealias Opened = EngineParityTests.Opened

    /// `check`'s lines about kept counts (the others are not this suite's).
    static func countLines(_ opened: Opened) throws -> [String] {
        try CatalogueStorage.check(opened.location, digest: { $0 }, progress: { _ in }).filter { $0.contains("kept count") }
    }

    /// The totals `stats` gives, counted apart from the kept counts through the listings.
    static func expectStatsAreTheRows(_ store: any CatalogueStore, _ step: String) throws {
        let stats = try store.stats()
        var byLabel: [Int: (images: Int, own: [Double])] = [:]
        var corrected = 0, paths = 0, missing = 0, classifications = 0, corrections = 0
        try store.forEachCurrentClassification(ClassificationQuery()) { current in
            byLabel[current.effectiveLabel, default: (0, [])].images += 1
            if current.label == current.effectiveLabel { byLabel[current.effectiveLabel]!.own.append(current.confidence) }
            if current.correctedLabel != nil { corrected += 1 }
            let known = try store.paths(of: current.image)
            paths += known.count
            missing += known.filter(\.isMissing).count
            classifications += try store.history(of: current.image).count
            corrections += try store.corrections(of: current.image).count
        }
        #expect(stats.images == byLabel.values.reduce(0) { $0 + $1.images }, "\(step)")
        let kept: [Int] = [stats.paths, stats.missingPaths, stats.classifications, stats.corrections, stats.corrected]
        #expect(kept == [paths, missing, classifications, corrections, corrected], "\(step)")
        #expect(stats.failures == (try store.failingFiles().count), "\(step)")
        #expect(stats.labels.map(\.label) == byLabel.keys.sorted(), "\(step)")
        for entry in stats.labels {
            let rows = byLabel[entry.label]!
            #expect(entry.count == rows.images, "\(step): label \(entry.label)")
            let mean = rows.own.isEmpty ? nil : rows.own.reduce(0, +) / Double(rows.own.count)
            #expect((entry.meanConfidence == nil) == (mean == nil), "\(step): label \(entry.label)")
            if let mean, let kept = entry.meanConfidence { #expect(abs(kept - mean) <= 5e-10, "\(step): label \(entry.label)") }
        }
    }

    @Test(arguments: EngineParityTests.engines)
    func keptCountsAreTheRowsAfterEveryKindOfWrite(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let store = opened.store
        #expect(try CatalogueCopier.isEmpty(store), "a new catalogue keeps no count rows")
        // Import in two runs, reclassify, label, clear, confirm, `none`, a look that finds paths gone.
        try EngineParityTests.write(store)
        var steps = ["import, reclassify, label, look"]
        func expectAgreement() throws {
            #expect(try Self.countLines(opened) == [], "\(steps)")
            try Self.expectStatsAreTheRows(store, steps.joined(separator: ", "))
        }
        try expectAgreement()
        #expect(try store.stats().images == 30 && store.stats().missingPaths == 2)

        steps.append("relabel")
        _ = try store.correct([ImageID(1), ImageID(6), ImageID(7)], .label(9), command: "label")
        _ = try store.correct([ImageID(25)], .confirm, command: "label")
        try expectAgreement()

        steps.append("colours measured, set by a person, taken back")
        try store.recordColours(StoredColours(main: "red", shares: [.init(name: "red", share: 1, lightness: 50, a: 60, b: 40)],
                                              onGarment: true), of: ImageID(9))
        _ = try store.setColour([ImageID(1), ImageID(3), ImageID(9)], "white", command: "colour")
        _ = try store.setColour([ImageID(3)], nil, command: "colour")
        let colours = try store.stats().colours
        #expect(colours.first { $0.colour == "white" }.map { [$0.images, $0.byPerson] } == [3, 2], "\(colours)")
        #expect(colours.reduce(0) { $0 + $1.images } == 30)
        try expectAgreement()

        steps.append("reclassify")
        let model = try store.registerModel(Synthetic.model(3))
        let run = try store.openRun(command: "reclassify", model: model, recipe: Recipe(name: "photo", version: 4))
        try store.writing(run: run) { batch in
            try batch.addClassifications((0..<30).map { (ImageID(Int64($0 + 1)), Synthetic.classification($0, variant: 2)) })
            return RunCounts(seen: 30, imported: 0, classified: 30, skipped: 0, failed: 0)
        }
        try store.closeRun(run, counts: RunCounts(seen: 30, imported: 0, classified: 30, skipped: 0, failed: 0))
        try expectAgreement()

        steps.append("forget")
        let forgotten = try store.forget([ImageID(1), ImageID(2), ImageID(3), ImageID(6)])
        #expect(forgotten.images == 4)
        try expectAgreement()
        #expect(try store.stats().images == 26)

        steps.append("prune")
        let pruned = try store.recordLook(present: [], missing: ["/photos/0000010.jpg", "/photos/0000011.jpg"], dropMissing: true)
        #expect(pruned.dropped == 2, "\(pruned)")
        try expectAgreement()

        steps.append("a failure stored, then the same path imported")
        try store.writing(run: run) { batch in
            try batch.recordFailure(path: "/photos/late.jpg", reason: "not a JPEG yet")
            return RunCounts(seen: 1, imported: 0, classified: 0, skipped: 0, failed: 1)
        }
        #expect(try store.stats().failures == 2)
        try store.writing(run: run) { batch in
            var late = Synthetic.image(500)
            late.file = SeenFile(path: "/photos/late.jpg", size: 5, modificationTimeNanoseconds: 5)
            try batch.insertImages([late], known: .isClassifiedAgain)
            return RunCounts(seen: 1, imported: 1, classified: 1, skipped: 0, failed: 0)
        }
        #expect(try store.stats().failures == 1)
        try expectAgreement()
    }

    /// A count changed by another program is named by `check`, and the stats read it as kept.
    @Test(arguments: EngineParityTests.engines)
    func checkNamesAKeptCountThatIsNotTheRows(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        try EngineParityTests.write(opened.store)
        let change = "UPDATE catalogue_counts SET amount = amount + 5 WHERE counted = 'images'; "
            + "UPDATE label_counts SET images = images + 1 WHERE label = 4"
        if engine == .sqlite {
            try Catalogue(path: opened.location).database.executeScript(change)
        } else {
            try TestPostgres.shared().psql(String(opened.location.split(separator: "/").last!), change)
        }
        #expect(try opened.store.stats().images == 35)
        let lines = try Self.countLines(opened)
        #expect(lines.count == 1 && lines[0].contains("images: 35 kept, 30 in the rows")
                && lines[0].contains("label 4: "), "\(lines)")
    }

    /// Two connections importing at once, batch after batch, each batch's labels in another
    /// order: every count is exact, and neither waits forever on the other's counts.
    @Test(arguments: EngineParityTests.engines)
    func concurrentWritersKeepExactCounts(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let model = try opened.store.registerModel(Synthetic.model(1))
        let failures = Failures(), location = opened.location
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            do {
                let store = try CatalogueStorage.open(location, access: .readWrite)
                let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4))
                for batch in 0..<20 {
                    let numbers = (0..<10).map { 1_000 * writer + 10 * batch + $0 }
                    try store.writing(run: run) { writing in
                        try writing.insertImages((writer == 0 ? numbers : numbers.reversed()).map { Synthetic.image($0) },
                                                 known: .isClassifiedAgain)
                        return RunCounts(seen: 10, imported: 10, classified: 10, skipped: 0, failed: 0)
                    }
                }
                try store.closeRun(run, counts: RunCounts(seen: 200, imported: 200, classified: 200, skipped: 0, failed: 0))
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try opened.store.stats().images == 400 && opened.store.stats().classifications == 400)
        #expect(try Self.countLines(opened) == [])
        try Self.expectStatsAreTheRows(opened.store, "two writers")
    }

    /// `check` while another connection commits batch after batch: the kept counts and the
    /// rows' counts are read in one snapshot, so each batch is in both or in neither. Read one
    /// after another, a batch committed between them was in the rows only, and `check` named
    /// the catalogue's counts as changed by another program (seen with an import running).
    @Test(arguments: EngineParityTests.engines)
    func checkBesideAWriterReadsTheCountsInOneSnapshot(engine: Engine) throws {
        let opened = try Opened(engine)
        defer { opened.directory.remove() }
        let model = try opened.store.registerModel(Synthetic.model(1))
        let stop = Atomic<Bool>(false), batches = Atomic<Int>(0), failures = Failures(), location = opened.location
        let writer = DispatchGroup()
        DispatchQueue.global().async(group: writer) {
            do {
                let store = try CatalogueStorage.open(location, access: .readWrite)
                let run = try store.openRun(command: "import", model: model, recipe: Recipe(name: "photo", version: 4))
                var number = 0
                while !stop.load(ordering: .relaxed) {
                    number += 1
                    try store.writing(run: run) { writing in
                        try writing.insertImages([Synthetic.image(number)], known: .isClassifiedAgain)
                        return RunCounts(seen: number, imported: number, classified: number, skipped: 0, failed: 0)
                    }
                    batches.add(1, ordering: .relaxed)
                }
            } catch {
                failures.add("\(error)")
            }
        }
        while batches.load(ordering: .relaxed) == 0 && failures.all.isEmpty { usleep(1_000) }
        let before = batches.load(ordering: .relaxed)
        var lines: [String] = []
        for _ in 0..<40 where lines.isEmpty {
            lines = try Self.countLines(opened)
        }
        let during = batches.load(ordering: .relaxed) - before
        stop.store(true, ordering: .relaxed)
        writer.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(during > 0, "the writer committed while check read")
        #expect(lines == [])
        #expect(try Self.countLines(opened) == [])
    }

    private final class Failures: @unchecked Sendable {
        private var lines: [String] = []
        private let lock = NSLock()
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }
}
