import Catalogue
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Synchronization
import Testing
import Training
@testable import Wardrobe

/// `import --watch` in-process: files written into a watched folder one by one and all at
/// once are each in the catalogue, classified once, within 10 s of the last write; a moved
/// file is a new path of known content; a deleted one is reported gone; and the watch stops
/// within a second of being asked.
@Suite struct FolderSyncTests {
    @Test func fiftyOneByOneAndTwoHundredAtOnceAreEachImportedOnce() throws {
        let source = try EngineFolder(fashionImages: 250)   // the files to copy in, made beforehand
        defer { source.remove() }
        let watched = source.path("watched")
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        let catalogue = try Catalogue(path: source.path("catalogue.sqlite"))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 2, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options)

        let stop = Atomic<Bool>(false)
        let writer = Thread {
            // 50 one by one, each written in two parts as a copy in progress is, then 200 at once.
            for (index, image) in source.images.prefix(50).enumerated() {
                let bytes = try! ImageFile.read(image)
                let target = watched + "/one-\(index).png"
                try! ImageFile.write(Array(bytes.prefix(bytes.count / 2)), to: target)
                usleep(20_000)
                let handle = FileHandle(forWritingAtPath: target)!
                handle.seekToEndOfFile()
                handle.write(Data(bytes.dropFirst(bytes.count / 2)))
                try! handle.close()
                usleep(10_000)
            }
            for (index, image) in source.images.dropFirst(50).enumerated() {
                try! FileManager.default.copyItem(atPath: image, toPath: watched + "/many-\(index).png")
            }
        }
        writer.start()
        var batches = 0
        var gone: [String] = []
        var failures: [ImportReport.Failure] = []
        var allIn: Date?
        let deadline = Date().addingTimeInterval(60)
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) }, batch: { batch in
            batches += 1
            gone += batch.gone
            if (try? Self.allPresent(catalogue, watched: watched)) == true {
                allIn = Date()
                stop.store(true, ordering: .relaxed)
            }
            if Date() > deadline { stop.store(true, ordering: .relaxed) }
        }, failure: { failures.append($0) })

        let finished = try #require(allIn, "every file was imported before the deadline")
        let written = try FileManager.default.attributesOfItem(atPath: watched + "/many-199.png")[.modificationDate] as! Date
        #expect(finished.timeIntervalSince(written) < 10, "in the catalogue \(finished.timeIntervalSince(written)) s after the last write")
        #expect(failures.isEmpty, "a file half-written was never taken: \(failures)")
        #expect(try Self.allPresent(catalogue, watched: watched))
        let images = try catalogue.stats().images
        #expect(try catalogue.countCurrentClassifications() == images)
        let classifications = try catalogue.database.scalarInt("SELECT count(*) FROM classifications") ?? 0
        #expect(Int(classifications) == images, "each image classified once: \(classifications) for \(images)")
        #expect(batches >= 2 && gone.isEmpty)
    }

    static func allPresent(_ catalogue: Catalogue, watched: String) throws -> Bool {
        for index in 0..<50 where try catalogue.knownPath(watched + "/one-\(index).png") == nil { return false }
        for index in 0..<200 where try catalogue.knownPath(watched + "/many-\(index).png") == nil { return false }
        return true
    }

    @Test func aMovedFileIsANewPathOfKnownContentAndADeletedOneIsGone() throws {
        let source = try EngineFolder(fashionImages: 2)
        defer { source.remove() }
        let watched = source.path("watched")
        try FileManager.default.createDirectory(atPath: watched + "/sub", withIntermediateDirectories: true)
        let catalogue = try Catalogue(path: source.path("catalogue.sqlite"))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options, settle: 0.2)
        try FileManager.default.copyItem(atPath: source.images[0], toPath: watched + "/a.png")
        try FileManager.default.copyItem(atPath: source.images[1], toPath: watched + "/sub/b.png")

        var step = 0
        var reports: [ImportReport] = []
        var gone: [String] = []
        var markedMissing = 0
        let stop = Atomic<Bool>(false)
        let deadline = Date().addingTimeInterval(30)
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) || Date() > deadline }, batch: { batch in
            reports.append(batch.report)
            gone += batch.gone
            markedMissing += batch.markedMissing
            if step == 0, (try? catalogue.stats().images) == 2 {
                step = 1
                try? FileManager.default.moveItem(atPath: watched + "/a.png", toPath: watched + "/sub/a-moved.png")
                try? FileManager.default.removeItem(atPath: watched + "/sub/b.png")
            } else if step == 1, (try? catalogue.knownPath(watched + "/sub/a-moved.png")) != nil, gone.count >= 2 {
                stop.store(true, ordering: .relaxed)
            }
        }, failure: { _ in })

        #expect(try catalogue.stats().images == 2, "the move added no image")
        #expect(reports.map(\.newPaths).reduce(0, +) == 1, "the moved file is a new path of known content")
        #expect(Set(gone) == [watched + "/a.png", watched + "/sub/b.png"])
        #expect(markedMissing == 2)
        #expect(try catalogue.knownPath(watched + "/a.png")?.isMissing == true, "the moved-away path is marked missing")
        #expect(try catalogue.knownPath(watched + "/sub/b.png")?.isMissing == true, "the deleted path is marked missing")
        #expect(try catalogue.knownPath(watched + "/sub/a-moved.png")?.isMissing == false)
        let classifications = try catalogue.database.scalarInt("SELECT count(*) FROM classifications") ?? 0
        #expect(classifications == 2)
    }

    /// Names that are not UTF-8 (an old camera's Latin-1 `\xE9t\xE9`) arrive in a watched
    /// folder as they do in an imported one: a file, and a folder made later with a file in
    /// it, are imported under their exact bytes. (The watcher read inotify's names and listed
    /// new folders lossily, with U+FFFD for such bytes: those files were silently never taken.)
    @Test func namesThatAreNotUTF8AreTakenUnderTheirExactBytes() throws {
        let source = try EngineFolder(fashionImages: 2)
        defer { source.remove() }
        let watched = source.path("watched")
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        let catalogue = try Catalogue(path: source.path("catalogue.sqlite"))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [watched], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options, settle: 0.2)

        let file = Array(watched.utf8) + Array("/".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let folder = Array(watched.utf8) + Array("/".utf8) + [0xE9, 0x74, 0xE9]
        let inFolder = folder + Array("/b.png".utf8)
        func systemName<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
            (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
        }
        func write(_ contents: [UInt8], to path: [UInt8]) throws {
            let descriptor = systemName(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            try #require(descriptor >= 0, "cannot create \(path)")
            defer { close(descriptor) }
            try #require(contents.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == contents.count)
        }
        try write(try ImageFile.read(source.images[0]), to: file)
        try #require(systemName(folder) { mkdir($0, 0o755) } == 0)
        try write(try ImageFile.read(source.images[1]), to: inFolder)

        var failures: [ImportReport.Failure] = []
        let stop = Atomic<Bool>(false)
        let deadline = Date().addingTimeInterval(30)
        try sync.run(shouldStop: { stop.load(ordering: .relaxed) || Date() > deadline }, batch: { _ in
            if (try? catalogue.stats().images) == 2 { stop.store(true, ordering: .relaxed) }
        }, failure: { failures.append($0) })

        #expect(failures.isEmpty, "\(failures)")
        #expect(try catalogue.stats().images == 2, "both files were imported")
        let stored = try catalogue.database.rows("SELECT path_bytes FROM image_paths") { $0.optionalBlob(0) }
        #expect(Set(stored.compactMap { $0 }) == [file, inFolder], "each path kept as its exact bytes")
    }

    @Test func theWatchStopsWithinASecondOfBeingAsked() throws {
        let source = try EngineFolder(fashionImages: 1)
        defer { source.remove() }
        let catalogue = try Catalogue(path: source.path("catalogue.sqlite"))
        let importer = Importer(catalogue: catalogue, classifier: try EngineFolder.classifier())
        let options = ImportOptions(paths: [source.path("images")], jobs: 1, recipe: try PrepRecipes.named("fashion-mnist"))
        let sync = try FolderSync(importer: importer, options: options)
        let asked = Atomic<Int64>(0)
        let started = Date()
        let stopper = Thread {
            usleep(300_000)
            asked.store(Int64(Date().timeIntervalSince(started) * 1000), ordering: .relaxed)
        }
        stopper.start()
        try sync.run(shouldStop: { asked.load(ordering: .relaxed) > 0 }, batch: { _ in }, failure: { _ in })
        let stoppedAfter = Date().timeIntervalSince(started) * 1000 - Double(asked.load(ordering: .relaxed))
        #expect(stoppedAfter < 1000, "stopped \(stoppedAfter) ms after being asked")
    }
}
