import Catalogue
import CatalogueFixtures
import Foundation
import Imaging
import Testing

/// A disk that fails by bits, not by pages: a catalogue made by importing the
/// twelve real photos of Fixtures/photos, with 50 bits flipped at seeded random
/// offsets anywhere in the file. Every command, reading or writing, either works
/// (the damage lies where it does not look) or stops with the one-line message
/// that says how to recover and leaves the file as it found it; `wardrobe check`
/// reports the damage. A flip inside a stored thumbnail is no damage SQLite can
/// see: a command that decodes it names the image as failed (status 2).
@Suite(.serialized) struct FlippedBitsCatalogueTests {
    static let root = FileManager.default.currentDirectoryPath
    static let flips = 50

    /// A catalogue of Fixtures/photos, closed (the last connection checkpoints the
    /// WAL into the file and removes it), with `flips` bits flipped; the offsets
    /// come from SplitMix64 seeded with `seed`.
    static func flippedCatalogue(in folder: PhotoFolder, seed: UInt64) throws -> String {
        let db = folder.path("imported.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--jobs", "1", "-q", root + "/Fixtures/photos"])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "the WAL is in the file")
        var bytes = try #require(FileManager.default.contents(atPath: db))
        var state = seed
        for _ in 0..<flips {
            state = Synthetic.mix(state)
            let offset = Int(state % UInt64(bytes.count))
            bytes[offset] ^= UInt8(1) << UInt8((state >> 32) % 8)
        }
        try bytes.write(to: URL(fileURLWithPath: db))
        return db
    }

    /// Every command that opens the catalogue, reading and writing, with what it needs.
    static func commands(photos: String, newPhoto: String, backup: String) -> [[String]] {
        [["stats"], ["stats", "--json"], ["list"], ["list", "--csv"], ["list", "--json"], ["list", "--label", "coat"],
         ["export"], ["export", "--all"], ["failures"], ["model", "list"]]
            + (1...12).flatMap { [["show", String($0)], ["history", String($0)]] }
            + [["import", photos], ["classify", newPhoto], ["label", "coat", "1", "5", "9"], ["label", "--clear", "2"],
               ["label", "--confirm", "3"], ["reclassify"], ["reclassify", "--prep", "fashion-mnist", "4"],
               ["prune"], ["prune", "--drop-missing"], ["forget", "--yes", "6"], ["backup", backup],
               ["model", "use", root + "/Models/clothing.aimodel"]]
    }

    // Seed 3 was one of these until migration 0014's index moved the file's pages: its fifty
    // flips now all land where neither SQLite's check nor any command looks (the test's premise,
    // that check sees them, no longer holds for it), so seed 5 took its place.
    @Test(arguments: [1, 2, 4, 5] as [UInt64])
    func everyCommandWorksOrStopsAndWritesNothing(seed: UInt64) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let damaged = try Self.flippedCatalogue(in: folder, seed: seed)
        let original = try #require(FileManager.default.contents(atPath: damaged))
        for index in 0..<5 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "new/\(index).png")
        }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(7)), to: "one.png")

        // SQLite itself sees the damage; `wardrobe check` reports it.
        let check = try WardrobeProcess.run(["check", "--db", damaged])
        #expect(check.status == 1, "seed \(seed): \(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("damaged") || check.stderr.contains("damaged"), "seed \(seed): \(check.stdout)\(check.stderr)")

        var stopped: [String] = []
        var thumbnailFailures = 0
        let backup = folder.path("backup.sqlite")
        for command in Self.commands(photos: folder.path("new"), newPhoto: folder.path("one.png"), backup: backup) {
            // Each command on its own copy of the damaged file.
            let db = folder.path("copy.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try original.write(to: URL(fileURLWithPath: db))
            try? FileManager.default.removeItem(atPath: backup)
            let sub = command.first == "model" ? 2 : 1
            let arguments = Array(command.prefix(sub)) + ["--db", db] + command.dropFirst(sub)
            let result = try WardrobeProcess.run(arguments)
            let said = "seed \(seed), \(command.joined(separator: " ")): status \(result.status), \(result.stderr)"
            if result.status == 0 { continue }
            if result.status == 2, Self.onlyThumbnailsFailed(result.stderr) {
                // A bit flipped inside a stored thumbnail: SQLite has no checksum to see it
                // with; decoding sees it, and the image is named as failed, as bad input is.
                thumbnailFailures += 1
                continue
            }
            stopped.append(command.joined(separator: " "))
            #expect(result.status == 1, "\(said)")
            #expect(result.stderr.contains("is damaged") && result.stderr.contains("wardrobe check")
                    && result.stderr.contains(".recover"), "\(said)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(said)")
            #expect(FileManager.default.contents(atPath: db) == original, "the file is unchanged: \(said)")
            let wal = FileManager.default.contents(atPath: db + "-wal") ?? Data()
            #expect(wal.count <= 32, "nothing in the WAL (\(wal.count) bytes): \(said)")
            #expect(!FileManager.default.fileExists(atPath: backup), "no backup left behind: \(said)")
        }
        // Fifty flipped bits are met by the commands, not only by `check`.
        #expect(!stopped.isEmpty, "seed \(seed): no command met the damage")
        print("seed \(seed): \(stopped.count) commands stopped at the damage (\(stopped.joined(separator: ", "))); "
              + "\(thumbnailFailures) named a damaged thumbnail")
    }

    /// True when every line is an image whose stored thumbnail did not decode.
    static func onlyThumbnailsFailed(_ stderr: String) -> Bool {
        let lines = stderr.split(separator: "\n")
        return !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("error: image ") && $0.contains("stored thumbnail") }
    }
}
