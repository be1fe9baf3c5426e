import Foundation
import CommandLineKit
import Testing

/// Tables align on terminal columns: a CJK ideograph or an emoji takes two, a
/// combining accent none. They were counted as characters, one each, so a row
/// with a Chinese name pushed its later cells out of line.
@Suite struct TableWidthTests {
    /// `filling`: a last cell too long for the width goes on under itself, broken between words
    /// (a wide word, a hash, stands alone); without a width, or when it fits, it is one line.
    @Test func aLongLastCellIsFilledUnderItself() {
        let rows = [["*", "1", "clothing 1.0", "81.1%: agrees with 43 of 53 labels it did not learn from"],
                    ["", "2", "mine 1.0", "no labelled image classified"]]
        let table = Format.table(rows, width: 40, filling: true)
        #expect(table == """
            *  1  clothing 1.0  81.1%: agrees with
                                43 of 53 labels it
                                did not learn from
               2  mine 1.0      no labelled image
                                classified
            """)
        #expect(Format.table(rows, width: 200, filling: true) == Format.table(rows))
        #expect(Format.table(rows, filling: true).split(separator: "\n").count == 2, "no width, no filling")
    }

    /// Where each row's last cell starts, in terminal columns (`DisplayColumns`).
    private func lastCellStarts(_ table: String, last: String) -> [Int] {
        table.split(separator: "\n").map { line in
            let start = line.range(of: last, options: .backwards)!.lowerBound
            return DisplayColumns.of(String(line[..<start]))
        }
    }

    @Test(arguments: ["コート.jpg", "中文名字的衬衫.png", "👟 sneaker.png", "cafe\u{301}.png", "ｆｕｌｌ.png", "한국어.jpg"])
    func cellsAfterAWideOrZeroWidthNameStayInLine(name: String) {
        let table = Format.table([["ID", "PATH", "END"], ["1", name, "END"], ["22", "plain.jpg", "END"]])
        let starts = lastCellStarts(table, last: "END")
        #expect(Set(starts).count == 1, "\(starts)\n\(table)")
    }

    /// A control character shows escaped (`\e`, `\u{202E}`), and the escape is what is measured.
    @Test func escapedControlCharactersAreMeasuredAsShown() {
        let table = Format.table([["a\u{1B}[2Jb", "END"], ["x\u{202E}y", "END"], ["名\tx", "END"], ["q", "END"]])
        #expect(table.contains("a\\e[2Jb") && table.contains("x\\u{202E}y") && table.contains("名\\tx"))
        let starts = lastCellStarts(table, last: "END")
        #expect(Set(starts).count == 1, "\(starts)\n\(table)")
    }

    /// Every invisible direction control shows escaped: embeddings and overrides, isolates,
    /// and the marks LRM, RLM and ALM (which were printed raw).
    @Test(arguments: ["202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069", "200E", "200F", "061C"])
    func directionControlsAreEscaped(hex: String) throws {
        let control = try #require(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init))
        let table = Format.table([["x\(control)y", "END"], ["q", "END"]])
        #expect(table.contains("x\\u{\(hex)}y") && !table.unicodeScalars.contains(control), "\(table)")
        #expect(Set(lastCellStarts(table, last: "END")).count == 1, "\(table)")
    }

    /// Invisible format characters show escaped too (zero-width space, byte-order mark, soft
    /// hyphen, word joiner, a language tag): printed raw, `a<ZWSP>.jpg` looked like `a.jpg`
    /// and moved the table's columns.
    @Test(arguments: ["200B", "FEFF", "2060", "E0001", "E0041"])
    func invisibleFormatCharactersAreEscaped(hex: String) throws {
        try directionControlsAreEscaped(hex: hex)
    }

    /// What joins rather than hides is drawn as it is: ZWNJ in a Persian word, ZWJ in an
    /// emoji sequence, the tags of a subdivision flag.
    @Test func joinersAndFlagTagsAreKept() {
        let england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
        for name in ["می\u{200C}خواهم.jpg", "👩\u{200D}💻.jpg", "\(england).jpg"] {
            #expect(Format.table([[name, "END"]]).contains(name), "\(name)")
        }
        #expect(Format.table([["a\u{E0041}b", "END"]]).contains("a\\u{E0041}b"), "a tag outside a flag is escaped")
        #expect(Format.table([["soft\u{AD}hyphen", "END"]]).contains("soft\\xADhyphen"), "as C1 is, below U+0100")
    }

    /// Shortened to fit a terminal, a wide name takes at most the columns it is given.
    @Test func aWideNameIsShortenedToColumnsNotCharacters() {
        let name = "/写真/" + String(repeating: "とても長いフォルダの名前/", count: 4) + "コート.jpg"
        for width in [12, 13, 20, 41] {
            let short = Format.shortenedInMiddle(name, to: width)
            #expect(DisplayColumns.of(short) <= width, "\(width): \(short)")
            #expect(DisplayColumns.of(short) >= width - 1, "at most one column short: \(short)")
            #expect(short.hasPrefix("/写") && short.hasSuffix(".jpg") && short.contains("…"))
        }
        let table = Format.table([["ID", "PATH", "DAY"], ["1", name, "2026-01-01"]], width: 40, shrinking: 1)
        for line in table.split(separator: "\n") { #expect(DisplayColumns.of(String(line)) <= 40, "\(line)") }
    }
}

/// The test's own measure of a few kinds of text, from Unicode's East Asian Width
/// table (wide and fullwidth ranges) and its combining marks: independent of the C library.
enum DisplayColumns {
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x300...0x36F, 0x200B...0x200D, 0xFE00...0xFE0F: sum
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: sum + 2
            default: sum + 1
            }
        }
    }
}
