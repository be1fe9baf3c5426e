import Foundation
import Imaging
import Testing

/// `show` of a 1x20000 photo drew a one-column strip 128 lines tall (its thumbnail, 1x256,
/// fitted to the width alone); of a 20000x1 one, a single line. The preview now keeps to
/// 30 lines at the default 40 columns, and to at least 4 columns and 2 lines.
@Suite struct ExtremeShapePreviewTests {
    @Test(arguments: [(1, 20_000, 4, 30), (20_000, 1, 40, 2)])
    func showDrawsAnExtremeShapeWithinItsBox(width: Int, height: Int, drawnColumns: Int, drawnLines: Int) throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(Bitmap(width: width, height: height, filledWith: [128, 128, 128])), to: "strip.png")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--quiet", folder.path("strip.png")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try WardrobeProcess.run(["show", "--db", db, "1"])
        #expect(shown.status == 0, "\(shown.stderr)")
        // Off a terminal the preview is plain shading, before the facts that start with "image".
        let preview = shown.stdout.split(separator: "\n").prefix { !$0.hasPrefix("image") }
        #expect(preview.count == drawnLines, "\(shown.stdout)")
        #expect(preview.allSatisfy { $0.count == drawnColumns }, "\(shown.stdout)")
    }
}
