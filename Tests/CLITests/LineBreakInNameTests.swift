import Catalogue
import Foundation
import Imaging
import Inference
import Testing

/// A name from a file or a catalogue (a model's name, a photo's file name) may hold a
/// line break. Printed raw in a line of the tool's own, it split that line in two, and
/// what followed the break passed for a line of its own (`model info` showed a field
/// `line` that the file does not have). Every line that quotes such a name shows the
/// break as `\n`, as tables, warnings and errors already did.
@Suite(.serialized) struct LineBreakInNameTests {
    static let root = FileManager.default.currentDirectoryPath
    static let photos = root + "/Fixtures/photos"
    static let hostileName = "evil\nline \u{1B}[2J"

    /// The bundled model under a name and version holding line breaks and an escape.
    static func hostileModel(at path: String) throws {
        var file = try ModelFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/Models/clothing.aimodel"))))
        file.description.name = hostileName
        file.description.version = "1\nversion 9"
        try file.write(to: URL(fileURLWithPath: path))
    }

    /// True when no line of `text` starts with what followed a break in a hostile name.
    static func noLineSplit(_ text: String) -> Bool {
        !text.split(separator: "\n").contains { $0.hasPrefix("line") || $0.hasPrefix("version 9") || $0.hasPrefix("b.png") }
    }

    /// Such a model is refused (a name holds no control character), in one error line
    /// that neither splits nor shows the escape raw, and nothing is adopted.
    @Test func modelInfoAndModelUseRefuseANameThatWouldSplitALine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let model = folder.path("hostile.aimodel"), db = folder.path("c.sqlite")
        try Self.hostileModel(at: model)

        let info = try WardrobeProcess.run(["model", "info", model])
        #expect(info.status != 0 && info.stdout.isEmpty, "\(info.stdout)")
        #expect(info.stderr.contains("control character"), "\(info.stderr)")
        #expect(Self.noLineSplit(info.stderr) && !info.stderr.contains("\u{1B}"), "\(info.stderr)")

        #expect(try WardrobeProcess.run(["import", "--db", db, Self.photos + "/shoes"]).status == 0)
        let used = try WardrobeProcess.run(["model", "use", "--db", db, model])
        #expect(used.status != 0, "\(used.stdout)")
        #expect(Self.noLineSplit(used.stdout + used.stderr) && !used.stderr.contains("\u{1B}"), "\(used.stderr)")
        let listed = try WardrobeProcess.run(["model", "list", "--db", db])
        #expect(!listed.stdout.contains("evil"), "nothing adopted: \(listed.stdout)")
    }

    @Test func prepAndExportKeepAFileNameOnItsLine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Fixtures/fashion-sample.png"))),
                         to: "photos/a\nb.png")
        let photo = folder.path("photos/a\nb.png")

        let prep = try WardrobeProcess.run(["prep", photo])
        #expect(prep.status == 0, "\(prep.stderr)")
        #expect(prep.stdout.contains("a\\nb.png: png 28x28"), "\(prep.stdout)")
        #expect(Self.noLineSplit(prep.stdout), "\(prep.stdout)")

        #expect(try WardrobeProcess.run(["import", "--db", db, folder.path("photos")]).status == 0)
        // The line on stderr that says where the export went.
        let export = try WardrobeProcess.run(["export", "--db", db, "--output", folder.path("out\nb.png.csv")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("out\\nb.png.csv"), "\(export.stderr)")
        #expect(Self.noLineSplit(export.stderr), "\(export.stderr)")
    }

    /// `a<LF>b.png` shows as `a\nb.png`, which is also the name of a file holding a backslash
    /// and an `n`; both used to be imported, and `list`, `show` and the CSV showed two images
    /// at one path. As for a byte that is not UTF-8 shown as `\xFF`, the file found second is
    /// refused with one line, in the same walk or a later one, and the first keeps its row.
    @Test(arguments: [("a\nb.png", "a\\nb.png"), ("c\td.png", "c\\td.png"), ("e\u{1B}[1m.png", "e\\e[1m.png")])
    func aNameThatShowsAsAnotherFilesIsRefused(control: String, literal: String) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite"), other = folder.path("other.sqlite")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)), to: "photos/" + literal)
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(4)), to: "photos/" + control)

        for _ in 0..<2 {
            let walked = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
            #expect(walked.status == 2, "\(walked.stdout)")
            #expect(walked.stderr.split(separator: "\n").count == 1 && walked.stderr.contains("shows as another file's"),
                    "\(walked.stderr)")
            let paths = try Catalogue(path: db, mode: .readOnly).knownPaths().map(\.path)
            #expect(paths.count == 1, "\(paths)")
        }

        // Imported one at a time into another catalogue, the second is refused all the same.
        let first = try WardrobeProcess.run(["import", "--db", other, "--prep", "fashion-mnist", folder.path("photos/" + control)])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try WardrobeProcess.run(["import", "--db", other, "--prep", "fashion-mnist", folder.path("photos/" + literal)])
        #expect(second.status == 2 && second.stderr.contains("shows as another file's"), "\(second.stderr)")
        let paths = try Catalogue(path: other, mode: .readOnly).knownPaths().map(\.path)
        #expect(paths == [folder.path("photos/" + control)], "\(paths)")
    }
}
