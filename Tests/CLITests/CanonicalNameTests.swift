import Foundation
import Imaging
import Testing

/// Two file names that differ in bytes but are canonically equivalent Unicode: `café` with a
/// precomposed é (U+00E9, as Linux writes it) and with e and a combining acute (U+0301, as
/// macOS writes names). They look the same everywhere, and Swift compares them as equal
/// strings: the walk took the second for the first and passed over it without a word
/// ("Imported 1 of 1 file"), and a later import stored it beside the first under a name no
/// output could tell apart. As for other names that show alike, the second is refused with
/// one line naming it, in the same walk or a later import; the first keeps its record.
@Suite struct CanonicalNameTests {
    static let composed = "caf\u{E9}.png"
    static let decomposed = "cafe\u{301}.png"

    static func photos(_ folder: PhotoFolder, names: [String]) throws {
        for (index, name) in names.enumerated() {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/" + name)
        }
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path("photos"))
        try #require(listed.count == names.count, "two files, not one: \(listed.map { Array($0.unicodeScalars) })")
    }

    func expectRefused(_ result: WardrobeProcess.Result) {
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("its name shows as another file's"), "\(result.stderr)")
    }

    @Test func inOneWalkTheSecondIsRefusedNotPassedOver() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.photos(folder, names: [Self.composed, Self.decomposed])
        let db = folder.path("c.sqlite")
        expectRefused(try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")]))
        let ids = try WardrobeProcess.run(["list", "--db", db, "--ids"])
        #expect(ids.stdout == "1\n", "one image kept: \(ids.stdout)")
    }

    @Test func inALaterImportTheNewcomerIsRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.photos(folder, names: [Self.composed])
        let db = folder.path("c.sqlite")
        let first = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(first.status == 0, "\(first.stderr)")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/" + Self.decomposed)
        expectRefused(try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")]))
        let ids = try WardrobeProcess.run(["list", "--db", db, "--ids"])
        #expect(ids.stdout == "1\n", "the first keeps its record, alone: \(ids.stdout)")
    }
}
