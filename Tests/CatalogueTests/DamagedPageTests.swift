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

    /// The same with writes in the -wal beside the damaged file: refusing to write, the
    /// command's connection still folded that log into the file as it closed, so "nothing
    /// more was written" was not so. The file and its log stay as they were found.
    @Test func aDamagedCatalogueKeepsItsLogUnfolded() throws {
        let setup = try CatalogueStoreTests.Setup()
        defer { setup.directory.remove() }
        try setup.catalogue.insertImages((0..<150).map { Synthetic.image($0, thumbnailBytes: 300) }, run: setup.run)
        try setup.catalogue.database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        let original = try #require(FileManager.default.contents(atPath: setup.catalogue.path))
        // Writes after the checkpoint stay in the log while the writer is open.
        try setup.catalogue.insertImages((150..<170).map { Synthetic.image($0, thumbnailBytes: 300) }, run: setup.run)
        let log = try #require(FileManager.default.contents(atPath: setup.catalogue.path + "-wal"))
        #expect(log.count > 4096, "the log holds pages")

        let pageSize = 4096, copy = setup.directory.path("copy.sqlite")
        var refused = 0
        for page in 1..<(original.count / pageSize) {
            var bytes = original
            bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(count: pageSize))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
            try bytes.write(to: URL(fileURLWithPath: copy))
            try log.write(to: URL(fileURLWithPath: copy + "-wal"))
            guard (try? Catalogue(path: copy, mode: .readWrite)) == nil else { continue }
            refused += 1
            #expect(FileManager.default.contents(atPath: copy) == bytes, "page \(page): the damaged file is left as it was")
            #expect(FileManager.default.contents(atPath: copy + "-wal") == log, "page \(page): its log is left beside it")
        }
        #expect(refused > 10)
    }
}
