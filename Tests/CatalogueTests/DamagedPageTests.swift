import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// A disk that loses a page: a small catalogue with each of its pages in turn zeroed (as a
/// failing sector, or a copy cut short and padded, leaves it). Whenever SQLite's
/// `integrity_check` (what `wardrobe check` runs) calls the copy damaged, opening it to
/// write refuses, and the file is left as it was: an import used to write into six of six
/// such copies, where the zeroed page lay off the few pages the cheap look reads.
@Suite struct DamagedPageTests {
    @Test func aCatalogueTheCheckCallsDamagedIsNotOpenedForWriting() throws {
        let setup = try CatalogueStoreTests.Setup()
        defer { setup.directory.remove() }
        try setup.catalogue.insertImages((0..<150).map { Synthetic.image($0, thumbnailBytes: 300) }, run: setup.run)
        try setup.catalogue.closeRun(setup.run, counts: RunCounts(seen: 150, imported: 150, classified: 150, skipped: 0, failed: 0))
        try setup.catalogue.database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        let original = try #require(FileManager.default.contents(atPath: setup.catalogue.path))
        let pageSize = 4096
        #expect(original.count / pageSize > 20, "enough pages to lose one of: \(original.count / pageSize)")

        let copy = setup.directory.path("copy.sqlite")
        var damaged = 0
        var writtenInto: [Int] = []
        for page in 1..<(original.count / pageSize) {
            var bytes = original
            bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(count: pageSize))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
            try bytes.write(to: URL(fileURLWithPath: copy))
            let check = (try? Database(path: copy, mode: .readOnly).rows("PRAGMA integrity_check") { $0.text(0) }) ?? []
            guard check != ["ok"] else { continue }
            damaged += 1
            if (try? Catalogue(path: copy, mode: .readWrite)) != nil { writtenInto.append(page) }
            #expect(FileManager.default.contents(atPath: copy) == bytes, "page \(page): the damaged file is left as it was")
        }
        #expect(damaged > 10)
        #expect(writtenInto.isEmpty, "opened for writing though damaged, page zeroed: \(writtenInto) of \(damaged)")
    }
}
