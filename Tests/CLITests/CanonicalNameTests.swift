import Files
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

    /// A name typed with its accent written the other way than the stored file's (é as one
    /// character, as keyboards type it, for a file copied from macOS) names that file's image
    /// when no file has the name as typed, and `--path` chooses it: they look the same, and
    /// were 'not found' and chose nothing; so does `--folder`. A file that has the typed name is
    /// another file.
    @Test func aNameTypedTheOtherWayNamesTheStoredFile() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.photos(folder, names: [Self.decomposed])
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let typed = folder.path("photos/" + Self.composed)
        let labelled = try WardrobeProcess.run(["label", "--db", db, "coat", typed])
        #expect(labelled.status == 0, "\(labelled.stderr)")
        let history = try WardrobeProcess.run(["history", "--db", db, typed])
        #expect(history.status == 0 && history.stdout.contains("Coat"), "\(history.stdout)\(history.stderr)")
        for pattern in ["caf\u{E9}", "*/caf\u{E9}.png", "cafe\u{301}", "*/caf[\u{E9}]*"] {
            let listed = try WardrobeProcess.run(["list", "--db", db, "--ids", "--path", pattern])
            #expect(listed.stdout == "1\n", "--path \(pattern): \(listed.stdout)\(listed.stderr)")
        }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(2)), to: "cafe\u{301}/shirt.png")
        let second = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("cafe\u{301}")])
        #expect(second.status == 0, "\(second.stderr)")
        let inFolder = try WardrobeProcess.run(["list", "--db", db, "--ids", "--folder", folder.path("caf\u{E9}")])
        #expect(inFolder.stdout == "2\n", "--folder: \(inFolder.stdout)\(inFolder.stderr)")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/" + Self.composed)
        let other = try WardrobeProcess.run(["show", "--db", db, "--no-preview", typed])
        #expect(other.status != 0 && other.stderr.contains("not found"), "\(other.stdout)\(other.stderr)")
    }

    /// `import` of a name typed the other way than the file's says a name that looks the same is
    /// there and how it is written; Swift's == calls the two equal, so no "did you mean" was
    /// found, and it said only 'no such file or folder'.
    @Test func importOfANameTypedTheOtherWaySaysHowTheFileIsWritten() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.photos(folder, names: [Self.decomposed])
        let result = try WardrobeProcess.run(["import", "--db", folder.path("c.sqlite"), folder.path("photos/" + Self.composed)])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("one whose name looks the same is there, its accents written otherwise (U+0301 where this has U+00E9)"),
                "\(result.stderr)")
    }

    /// Outputs are told apart by bytes too: `prep --out café.png --thumbnail cafe\u{301}.png`
    /// was refused as naming one file twice, though it names two.
    @Test func prepWritesBothOutputsWhoseNamesAreWrittenTwoWays() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try Self.photos(folder, names: ["shirt.png"])
        let result = try WardrobeProcess.run(["prep", "--recipe", "fashion-mnist", "--out", folder.path(Self.composed),
                                              "--thumbnail", folder.path(Self.decomposed), folder.path("photos/shirt.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path(""))
        #expect(written.filter { $0.hasSuffix(".png") }.count == 2, "\(written.map { Array($0.unicodeScalars) })")
    }

    /// A file in a folder named like an input folder, the accent written the other way, is
    /// not inside it: replacing it was refused as replacing a file the command reads.
    @Test func aFileBesideAnInputFolderNamedTheOtherWayIsNotInIt() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write([1], to: "caf\u{E9}/photo.png")
        try folder.write([2], to: "cafe\u{301}/model.aimodel")
        let input = OutputFile.Input(path: folder.path("caf\u{E9}"), role: "in the folder of training photos")
        let output = try OutputFile(path: folder.path("cafe\u{301}/model.aimodel"), sparing: [input])
        try output.write([3])
        try output.finish()
        #expect(FileManager.default.contents(atPath: folder.path("cafe\u{301}/model.aimodel")) == Data([3]))
        #expect(FileManager.default.contents(atPath: folder.path("caf\u{E9}/photo.png")) == Data([1]))
        // And a file really inside the input folder is still spared.
        #expect(throws: RegularFile.Failure.self) {
            try OutputFile(path: folder.path("caf\u{E9}/photo.png"), sparing: [input])
        }
    }
}
