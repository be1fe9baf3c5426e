import Catalogue
import Foundation
import Imaging
import Testing

/// `wardrobe import` end to end, through the built binary, on real files.
@Suite(.serialized) struct ImportCommandTests {
    struct Report: Decodable {
        struct Failure: Decodable { var path: String; var reason: String }
        var files_found: Int
        var new_images: Int
        var new_paths: Int
        var unchanged: Int
        var known_failures: Int
        var failed: [Failure]
        var labels: [String: Int]
        var interrupted: Bool
    }

    /// 12 Fashion-MNIST PNGs, 4 JPEGs, a large photo, an EXIF-rotated photo,
    /// a copy under another name, four junk files and a hidden folder.
    private func makeMixedFolder(_ folder: PhotoFolder) throws {
        let png = PNGEncoder()
        for index in 0..<12 {
            try folder.write(try png.encode(PhotoFolder.fashionBitmap(index)), to: "fashion/\(index).png")
        }
        for index in 12..<16 {
            try folder.write(try JPEGEncoder(quality: 95).encode(PhotoFolder.fashionBitmap(index)),
                             to: "fashion-jpeg/\(index).jpg")
        }
        let big = try JPEGEncoder(quality: 80).encode(PhotoFolder.photo(width: 3000, height: 2000, seed: 1))
        try folder.write(big, to: "photos/big.jpg")
        try folder.write(try JPEGEncoder(orientation: .rotated90Clockwise).encode(PhotoFolder.photo(width: 300, height: 200, seed: 2)),
                         to: "photos/rotated.jpg")
        try folder.write(try png.encode(PhotoFolder.fashionBitmap(0)), to: "copies/same-as-0.png")
        try folder.write([], to: "junk/empty.jpg")
        try folder.write(Array(big.prefix(big.count / 3)), to: "junk/truncated.jpg")
        try folder.write(Array("shopping list: socks\n".utf8), to: "junk/notes.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.path("junk/dangling.jpg"),
                                                   withDestinationPath: folder.path("nowhere.jpg"))
        try folder.write(try png.encode(PhotoFolder.fashionBitmap(99)), to: ".hidden/secret.png")
    }

    @Test func importsAFolderRecordingDuplicatesAndJunk() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try makeMixedFolder(folder)
        let db = folder.path("catalogue.sqlite")

        let first = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", folder.path("")])
        #expect(first.status == 2, "some files failed: \(first.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(first.stdout.utf8))
        #expect(report.new_images == 18)
        #expect(report.new_paths == 1)
        #expect(report.unchanged == 0)
        #expect(Set(report.failed.map { URL(fileURLWithPath: $0.path).lastPathComponent })
                == ["empty.jpg", "truncated.jpg", "notes.jpg", "dangling.jpg"])
        #expect(report.labels.values.reduce(0, +) == 18)
        for name in ["empty.jpg", "truncated.jpg", "notes.jpg", "dangling.jpg"] {
            let lines = first.stderr.split(separator: "\n").filter { $0.contains(name) }
            #expect(lines.count == 1, "one line names \(name)")
        }
        #expect(!first.stdout.contains("secret"))

        let catalogue = try Catalogue(path: db, mode: .readOnly)
        #expect(try catalogue.integrityCheck() == ["ok"])
        #expect(try catalogue.stats().images == 18)
        #expect(try catalogue.failures().count == 4)
        let rotated = try #require(try catalogue.image(path: folder.path("photos/rotated.jpg")))
        #expect((rotated.width, rotated.height) == (200, 300), "EXIF orientation 6 is applied")
        let copy = try #require(try catalogue.image(path: folder.path("copies/same-as-0.png")))
        #expect(copy.id == (try catalogue.image(path: folder.path("fashion/0.png")))?.id)

        // Again: every stored file is unchanged and skipped; so is the unchanged junk, as
        // known failures, the dangling link among them (known by the link itself).
        let second = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", folder.path("")])
        #expect(second.status == 0, "\(second.stderr)")
        let again = try JSONDecoder().decode(Report.self, from: Data(second.stdout.utf8))
        #expect(again.new_images == 0)
        #expect(again.new_paths == 0)
        #expect(again.unchanged == 19)
        #expect(again.known_failures == 4)
        #expect(again.failed.isEmpty)
        #expect(try catalogue.stats().images == 18)
    }

    @Test func aCleanImportExitsZeroAndPrintsASummary() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<5 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "\(index).png")
        }
        let result = try WardrobeProcess.run(["import", "--prep", "fashion-mnist", folder.path("")],
                                             environment: ["WARDROBE_DB": folder.path("c.sqlite")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("new images"))
        #expect(result.stdout.contains("5"))
        #expect(FileManager.default.fileExists(atPath: folder.path("c.sqlite")))
    }

    @Test func missingPathAndUnknownRecipeAreUsageErrors() throws {
        let usage = try WardrobeProcess.run(["import"])
        #expect(usage.status == 64)
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let recipe = try WardrobeProcess.run(["import", "--db", folder.path("c.sqlite"), "--prep", "sepia", folder.path("")])
        #expect(recipe.status == 64)
        #expect(recipe.stderr.contains("sepia"))
    }

    /// Killed with SIGKILL part-way and run again, an import ends with the
    /// same catalogue as one that was never interrupted.
    @Test func killedImportResumesToTheSameCatalogue() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let encoder = JPEGEncoder(quality: 85)
        for index in 0..<300 {
            try folder.write(try encoder.encode(PhotoFolder.photo(width: 240, height: 320, seed: index)),
                             to: "photos/\(index / 100)/\(index).jpg")
        }
        let photos = folder.path("photos")
        let arguments = ["import", "--prep", "fashion-mnist", "--json", photos]

        let whole = try WardrobeProcess.run(arguments + ["--db", folder.path("whole.sqlite")])
        #expect(whole.status == 0)

        let killedDB = folder.path("killed.sqlite")
        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = arguments + ["--db", killedDB, "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the first committed batch, then kill without warning.
        var storedWhenKilled = 0
        for _ in 0..<2000 {
            if let catalogue = try? Catalogue(path: killedDB, mode: .readOnly),
               let count = try? catalogue.stats().images, count > 0 {
                storedWhenKilled = count
                break
            }
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(storedWhenKilled > 0 && storedWhenKilled < 300, "killed part-way (\(storedWhenKilled) stored)")

        let resumed = try WardrobeProcess.run(arguments + ["--db", killedDB])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try snapshot(folder.path("whole.sqlite")) == snapshot(killedDB))
    }

    /// Every image's hash, paths and current label: what a user would see.
    private func snapshot(_ path: String) throws -> [String] {
        let catalogue = try Catalogue(path: path, mode: .readOnly)
        #expect(try catalogue.integrityCheck() == ["ok"])
        return try catalogue.database.rows("""
            SELECT hex(i.sha256), i.width, i.height,
                   (SELECT group_concat(path) FROM (SELECT path FROM image_paths p WHERE p.image_id = i.id ORDER BY path)),
                   (SELECT count(*) FROM classifications c WHERE c.image_id = i.id)
            FROM images i ORDER BY i.sha256
            """) { row in
            "\(row.text(0)) \(row.int(1))x\(row.int(2)) \(row.text(3)) classified \(row.int(4))"
        }
    }
}

extension ImportCommandTests {
    /// Ctrl-C (SIGINT), or a closed terminal (SIGHUP), stops after the current batch, says how
    /// to resume, exits 130, and leaves only whole images behind.
    @Test(arguments: [SIGINT, SIGHUP])
    func interruptStopsCleanlyAndSaysHowToResume(signal: Int32) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.writePhotos(200, width: 240, height: 320, firstSeed: 1000)
        let db = folder.path("c.sqlite")
        let process = Process()
        process.executableURL = WardrobeProcess.executable
        process.arguments = ["import", "--db", db, "--jobs", "1", "--prep", "fashion-mnist", folder.path("photos")]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        for _ in 0..<2000 {
            if let catalogue = try? Catalogue(path: db, mode: .readOnly), (try? catalogue.stats().images) ?? 0 > 0 { break }
            usleep(2_000)
        }
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("run the same command again"))
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let stored = try catalogue.stats().images
        #expect(stored > 0 && stored < 200)
        #expect(try catalogue.countCurrentClassifications() == stored, "every stored image is classified")
    }
}
