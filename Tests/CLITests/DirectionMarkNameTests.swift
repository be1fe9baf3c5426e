import Foundation
import Imaging
import Testing

/// A file name holding an invisible direction mark (LRM U+200E, RLM U+200F, ALM U+061C)
/// was printed raw to the terminal, where it reorders the text around it, though the
/// overrides and isolates beside them were already shown escaped.
@Suite struct DirectionMarkNameTests {
    @Test func listAndExportShowDirectionMarksEscaped() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let png = try PNGEncoder().encode(PhotoFolder.fashionBitmap(0))
        try folder.write(png, to: "photos/coat\u{200E}.png")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/\u{200F}bag.png")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(2)), to: "photos/\u{061C}shoe.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        for arguments in [["list", "--sort", "id"], ["export"]] {
            let shown = try WardrobeProcess.run(arguments + ["--db", db]).stdout
            #expect(shown.contains("coat\\u{200E}.png") && shown.contains("\\u{200F}bag.png") && shown.contains("\\u{061C}shoe.png"),
                    "\(arguments): \(shown)")
            #expect(!shown.unicodeScalars.contains { [0x200E, 0x200F, 0x061C].contains($0.value) }, "\(arguments): \(shown)")
        }
    }

    /// JSON too: the documents hold the names exactly, with each direction control as a JSON
    /// escape, where they were written raw and reordered the document on a terminal.
    @Test func jsonDocumentsHoldDirectionControlsAsEscapes() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let name = "a\u{202E}gpj.exe\u{200F}"
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/\(name).png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        for arguments in [["list", "--json"], ["export", "--format", "json"], ["show", "--json", "1"]] {
            let shown = try WardrobeProcess.run(arguments + ["--db", db])
            #expect(shown.status == 0, "\(arguments): \(shown.stderr)")
            #expect(!shown.stdout.unicodeScalars.contains { [0x202E, 0x200F].contains($0.value) }, "\(arguments): \(shown.stdout)")
            let paths = try #require(shown.stdout.firstMatch(of: /"path" ?: "([^"]+)"/)?.1, "\(arguments): \(shown.stdout)")
            let path = try JSONDecoder().decode(String.self, from: Data("\"\(paths)\"".utf8))
            #expect(path == folder.path("photos/\(name).png"), "\(arguments)")
        }
    }
}
