import Imaging
import Testing

@Suite struct PreviewTests {
    /// Top half of the tensor white, bottom half black, one gray pixel at (0, 14).
    static var halves: [Float] {
        var values = (0..<784).map { $0 < 392 ? Float(1) : 0 }
        values[14 * 28] = 0.5
        return values
    }

    @Test func plainTensorPreviewIsShadingOnly() {
        let text = TerminalPreview.tensor(Self.halves, style: .plain)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 14)
        #expect(lines.allSatisfy { $0.count == 28 })
        #expect(!text.contains("\u{1B}"))
        #expect(lines[0].allSatisfy { $0 == "\u{2588}" })
        #expect(lines[13].allSatisfy { $0 == " " })
        #expect(lines[7].first == "\u{2591}", "half of a gray pixel over black is light shade")
    }

    @Test func ansiTensorPreviewUsesTheGrayRamp() {
        let text = TerminalPreview.tensor(Self.halves, style: .ansi256)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 14)
        #expect(lines[0].hasPrefix("\u{1B}[38;5;231;48;5;231m\u{2580}"))
        #expect(lines[13].hasPrefix("\u{1B}[38;5;16;48;5;16m\u{2580}"))
        #expect(lines[7].hasPrefix("\u{1B}[38;5;244;48;5;16m\u{2580}"), "128 is ramp step 12")
        #expect(lines.allSatisfy { $0.hasSuffix("\u{1B}[0m") })
    }

    /// Issue 17: near-grays (a JPEG's tinted whites and shadows) came out of the
    /// cube as navy, teal, pink or yellow; the gray ramp is nearer for them.
    @Test func nearGraysUseTheGrayRampWhereItIsCloser() {
        /// The 256-colour entry a flat image of one colour is drawn with.
        func entry(_ colour: [UInt8]) -> String {
            let preview = TerminalPreview.image(Bitmap(width: 4, height: 4, filledWith: colour), columns: 4, style: .ansi256)
            return String(preview.dropFirst("\u{1B}[38;5;".count).prefix { $0 != ";" })
        }
        #expect(entry([200, 196, 204]) == "251", "the ramp's 198 is nearer than the cube's 215")
        #expect(entry([100, 100, 120]) == "242", "not the cube's blue 60 (95, 95, 135)")
        #expect(entry([60, 70, 60]) == "238", "a dark near-gray: the ramp, not the cube")
        #expect(entry([230, 20, 20]) == "160", "a real colour stays in the cube")
        // Every step of the gray ramp comes back as itself.
        for step in 0..<24 {
            let level = UInt8(8 + 10 * step)
            #expect(entry([level, level, level]) == String(232 + step))
        }
    }

    @Test func trueColourImagePreviewKeepsColoursAndAspect() {
        let bitmap = TestImages.quadrants(width: 100, height: 50)
        let text = TerminalPreview.image(bitmap, columns: 40, style: .trueColor)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines[0].hasPrefix("\u{1B}[38;2;230;20;20;48;2;230;20;20m\u{2580}"))
        #expect(lines[9].hasSuffix("\u{1B}[38;2;240;230;20;48;2;240;230;20m\u{2580}\u{1B}[0m"))
        #expect(lines[0].components(separatedBy: "\u{2580}").count - 1 == 40)
        let cube = TerminalPreview.image(bitmap, columns: 40, style: .ansi256)
        #expect(cube.hasPrefix("\u{1B}[38;5;160;48;5;160m"), "230, 20, 20 is nearest cube entry 160 (215, 0, 0)")
    }

    /// A picture of any shape fits `columns * 3 / 4` lines and keeps at least 4 columns and
    /// 2 lines: fitted to the width alone, a 1x256 thumbnail (of a 1x20000 image) was one
    /// column 128 lines tall. Photos of ordinary shape keep the size they had.
    @Test(arguments: [(1, 20_000, 4, 30), (20_000, 1, 40, 2), (3, 256, 4, 30), (256, 3, 40, 2), (1, 1, 4, 2),
                      (10, 256, 4, 30), (256, 192, 40, 15), (192, 256, 40, 27), (28, 28, 28, 14)])
    func previewsOfAnyShapeFitTheirBox(width: Int, height: Int, drawnColumns: Int, drawnLines: Int) {
        let text = TerminalPreview.image(Bitmap(width: width, height: height, filledWith: [128, 128, 128]), columns: 40, style: .plain)
        let drawn = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(drawn.count == drawnLines, "\(width)x\(height): \(drawn.count) lines")
        #expect(drawn.allSatisfy { $0.count == drawnColumns }, "\(width)x\(height): \(drawn.map(\.count))")
    }

    @Test func styleFollowsTheEnvironment() {
        #expect(TerminalStyle.detect(environment: [:], isTerminal: false) == .plain)
        #expect(TerminalStyle.detect(environment: ["NO_COLOR": "1"], isTerminal: true) == .plain)
        #expect(TerminalStyle.detect(environment: ["TERM": "xterm-256color"], isTerminal: true) == .ansi256)
        #expect(TerminalStyle.detect(environment: ["COLORTERM": "truecolor"], isTerminal: true) == .trueColor)
    }

    @Test func tensorPNGIsAnEnlargedGrayImage() throws {
        let png = try TensorImage.png(Self.halves, scale: 10)
        let decoded = try ImageDecoder().decode(png).bitmap
        #expect(decoded.width == 280 && decoded.height == 280 && decoded.channels == 1)
        #expect(decoded[5, 5] == [255] && decoded[279, 279] == [0] && decoded[9, 149] == [128])
    }

    @Test func contactSheetPlacesPhotosBesideTensors() throws {
        let photo = TestImages.photo(width: 200, height: 300)
        let tensors = [PhotoRecipe().prepare(photo), FashionMNISTRecipe().prepare(photo)]
        let sheet = TensorImage.contactSheet([(photo, tensors), (photo, tensors)], cell: 140)
        #expect(sheet.width == 3 * 144 + 4 && sheet.height == 2 * 144 + 4)
        // The photo (light wall) sits in the first cell, the photo tensor's black corner in the second.
        #expect(sheet[74, 20].allSatisfy { $0 > 200 })
        #expect(sheet[148 + 2, 140].allSatisfy { $0 == 0 })
    }
}
