import Catalogue
import Foundation
import Testing
@testable import Wardrobe

/// Files that change between the walk and the read: a FIFO swapped in for a photo
/// (which a blocking `open` would wait on forever), a folder, a vanished file. Each is
/// one failure with its reason; the import goes on and ends.
@Suite struct SwappedFileTests {
    @Test func aFIFOSwappedInAfterTheWalkIsAFailureNotAHang() throws {
        let folder = try EngineFolder(fashionImages: 8)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        let plan = try importer.plan(options)
        #expect(plan.toRead.count == 8)
        // After the walk: one photo becomes a FIFO, one a folder, one disappears.
        try FileManager.default.removeItem(atPath: folder.images[2])
        try #require(mkfifo(folder.images[2], 0o644) == 0)
        try FileManager.default.removeItem(atPath: folder.images[4])
        try FileManager.default.createDirectory(atPath: folder.images[4], withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: folder.images[6])

        var failures: [String: String] = [:]
        let report = try importer.run(options, plan: plan, progress: { _ in }, failure: { failures[$0.path] = $0.reason })
        #expect(report.newImages == 5)
        #expect(failures[folder.images[2]]?.contains("not a regular file (a FIFO)") == true, "\(failures)")
        #expect(failures[folder.images[4]]?.contains("is a directory") == true, "\(failures)")
        #expect(failures[folder.images[6]]?.contains("No such file") == true, "\(failures)")
        #expect(failures.count == 3)
    }
}

/// A file that failed because it was not, at its read, the file the walk saw (moved away and
/// back by a sync tool or a rename loop, a folder for a moment) is tried again by the next
/// import. Its failure was kept with the walk's size and time, so the photo back as it was
/// (`mv` keeps the time) was a known failure, passed over unread by every later import.
@Suite struct ReturnedFileTests {
    @Test func aFileGoneAtItsReadAndBackUnchangedIsReadAgain() throws {
        let folder = try EngineFolder(fashionImages: 6)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        let plan = try importer.plan(options)
        // After the walk: one photo is moved away, another replaced by a folder for a while.
        let away = folder.path("away.png"), kept = folder.path("kept.png")
        try FileManager.default.moveItem(atPath: folder.images[1], toPath: away)
        try FileManager.default.moveItem(atPath: folder.images[3], toPath: kept)
        try FileManager.default.createDirectory(atPath: folder.images[3], withIntermediateDirectories: false)
        var failed: [String] = []
        let first = try importer.run(options, plan: plan, progress: { _ in }, failure: { failed.append($0.path) })
        #expect(first.newImages == 4)
        #expect(Set(failed) == [folder.images[1], folder.images[3]])

        // Both back, each with the size and time the walk saw.
        try FileManager.default.moveItem(atPath: away, toPath: folder.images[1])
        try FileManager.default.removeItem(atPath: folder.images[3])
        try FileManager.default.moveItem(atPath: kept, toPath: folder.images[3])
        let again = try importer.plan(options)
        #expect(again.knownFailures.isEmpty, "\(again.knownFailures.map(\.path))")
        #expect(Set(again.toRead.map(\.path)) == [folder.images[1], folder.images[3]])
        let second = try importer.run(options, plan: again, progress: { _ in }, failure: { Issue.record("failed: \($0)") })
        #expect(second.newImages == 2)
        #expect(try catalogue.failingFile(folder.images[1]) == nil)
    }

    /// Two photos whose names were swapped after the walk and swapped back after the import:
    /// each path was kept with the other photo's content and the size and time the walk saw,
    /// so back as it was, each was unchanged to the next import, and named the wrong photo.
    @Test func namesSwappedDuringTheReadAndBackAreReadAgain() throws {
        let folder = try EngineFolder(fashionImages: 4)
        defer { folder.remove() }
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        let plan = try importer.plan(options)
        let (first, second, aside) = (folder.images[0], folder.images[1], folder.path("aside.png"))
        func swap() throws {
            try FileManager.default.moveItem(atPath: first, toPath: aside)
            try FileManager.default.moveItem(atPath: second, toPath: first)
            try FileManager.default.moveItem(atPath: aside, toPath: second)
        }
        try swap()
        _ = try importer.run(options, plan: plan, progress: { _ in }, failure: { Issue.record("failed: \($0)") })
        try swap()
        let again = try importer.plan(options)
        #expect(Set(again.toRead.map(\.path)) == [first, second], "\(again.unchanged.map(\.path))")
        _ = try importer.run(options, plan: again, progress: { _ in }, failure: { Issue.record("failed: \($0)") })
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first)))
        #expect(try catalogue.image(path: first)?.sha256 == SHA256Digest(bytes: SHA256.digest(bytes)))
    }

    @Test func aFileThatFailsAsTheWalkSawItStaysAKnownFailure() throws {
        let folder = try EngineFolder(fashionImages: 2)
        defer { folder.remove() }
        try Data("not a photo at all".utf8).write(to: URL(fileURLWithPath: folder.images[0]))
        let catalogue = try folder.catalogue()
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = try folder.importOptions(batchSize: 4)
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        let again = try importer.plan(options)
        #expect(again.knownFailures.map(\.path) == [folder.images[0]])
    }
}
