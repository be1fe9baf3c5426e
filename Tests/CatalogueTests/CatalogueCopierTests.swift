import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// `CatalogueCopier` between every pair of engines (SQLite alone when PostgreSQL is not
/// installed), on the session of use `EngineParityTests.write` makes: every table, ids,
/// history, capture times, adoptions with their kept model file.
@Suite struct CatalogueCopierTests {
    typealias Engine = EngineParityTests.Engine
    typealias Opened = EngineParityTests.Opened

    /// The digest as the whole encoding itself: two tables compare byte for byte.
    final class WholeEncoding: RowDigest {
        var bytes: [UInt8] = []
        func update(_ bytes: [UInt8]) { self.bytes += bytes }
        func finish() -> [UInt8] { bytes }
    }

    @Test(arguments: EngineParityTests.engines, EngineParityTests.engines)
    func aCopyAnswersAsItsSourceAndTakesNewRowsAfterIt(from: Engine, to: Engine) throws {
        let source = try Opened(from), destination = try Opened(to)
        defer { source.directory.remove(); destination.directory.remove() }
        try EngineParityTests.write(source.store)
        // A file an import still running on the source holds: no process works on the copy.
        let held = [SeenFile(path: "/arriving/photo.jpg", size: 1, modificationTimeNanoseconds: 0)]
        let hour = Date().addingTimeInterval(3_600)
        #expect(try source.store.leaseFiles(held, owner: "elsewhere 1 2 3", until: hour, at: Date()) == [true])
        let copies = try CatalogueCopier.copy(from: source.store, to: destination.store) { WholeEncoding() }
        #expect(copies.map(\.table) == CatalogueTable.all.map(\.name))
        let rows = Dictionary(uniqueKeysWithValues: copies.map { ($0.table, $0.rows) })
        #expect(rows["file_leases"] == 0 && rows["image_leases"] == 0, "\(rows)")
        #expect(try destination.store.leaseFiles(held, owner: "here 1 2 3", until: hour, at: Date()) == [true])
        // Three labels, a clear, a confirm and a `none`; one adoption; one path failing twice.
        #expect(rows["images"] == 30 && rows["image_paths"] == 31 && rows["classifications"] == 50
                && rows["corrections"] == 6 && rows["model_adoptions"] == 1 && rows["failing_files"] == 1, "\(rows)")
        let expected = try EngineParityTests.answers(source.store), found = try EngineParityTests.answers(destination.store)
        #expect(expected.count == found.count)
        for (one, other) in zip(expected, found) { #expect(one == other) }
        // A second copy into it is refused, and leaves it as it was.
        #expect(throws: CatalogueError.self) {
            try CatalogueCopier.copy(from: source.store, to: destination.store) { WholeEncoding() }
        }
        #expect(try EngineParityTests.answers(destination.store) == expected)
        // New rows take ids after the copied ones, and the triggers are on again.
        #expect(try destination.store.registerModel(Synthetic.model(3)) == ModelID(3))
        let before = try destination.store.labelCounts()[7] ?? 0
        _ = try destination.store.correct([ImageID(10)], .label(7), command: "label")
        #expect(try destination.store.labelCounts()[7] == before + (try source.store.currentClassification(of: ImageID(10))?
            .effectiveLabel == 7 ? 0 : 1))
        #expect(try destination.store.corrections(of: ImageID(10)).count == 1)
    }

    @Test func aTableCopyDoesNotKnowIsRefusedBeforeAnythingIsWritten() throws {
        let source = try Opened(.sqlite), destination = try Opened(.sqlite)
        defer { source.directory.remove(); destination.directory.remove() }
        try EngineParityTests.write(source.store)
        try #require(source.store as? Catalogue).database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        do {
            _ = try CatalogueCopier.copy(from: source.store, to: destination.store) { WholeEncoding() }
            Issue.record("a catalogue with a table copy does not know was copied")
        } catch let error as CatalogueError {
            #expect(error.description == "\(source.location): not copied: it has tables copy does not know (notes)")
        }
        #expect(try CatalogueCopier.isEmpty(destination.store))
    }
}
