import Files
import Foundation
import Testing
@testable import Wardrobe

/// What people type for labels, dates and images, and the rows `list` and
/// `export` write.
@Suite struct QueryParsingTests {
    @Test func everyLabelAnswersToItsNameAndLooseSpellings() throws {
        for (index, label) in ClothingClassifier.labels.enumerated() {
            #expect(try LabelMatcher.index(of: label) == index)
            #expect(try LabelMatcher.index(of: label.uppercased()) == index)
            #expect(try LabelMatcher.index(of: label.lowercased().replacingOccurrences(of: " ", with: "-")) == index)
        }
        for (text, index) in [("tshirt", 0), ("T shirt", 0), ("top", 0), ("tops", 0), ("trousers", 1), ("ankle_boot", 9),
                              ("Ankle-Boots", 9), ("shirts", 6), ("t-shirt/top", 0), ("bags", 8)] {
            #expect(try LabelMatcher.index(of: text) == index, "\(text)")
        }
        // The everyday words of a wardrobe, and `none` for a photo of none of the ten.
        for (text, index) in [("pants", 1), ("jeans", 1), ("boots", 9), ("jacket", 4), ("Jackets", 4), ("trainers", 7),
                              ("tee", 0), ("sweater", 2), ("hoodies", 2), ("handbag", 8), ("none", 10), ("None", 10)] {
            #expect(try LabelMatcher.index(of: text) == index, "\(text)")
        }
        for text in ["hat", "", "-", "shirtt", "jumper"] {
            #expect(throws: WardrobeError.self) { try LabelMatcher.index(of: text) }
        }
        #expect(LabelMatcher.name(of: 10) == "none" && LabelMatcher.name(of: 9) == "Ankle boot")
        do {
            _ = try LabelMatcher.index(of: "hat")
        } catch {
            #expect(error.description == "unknown label 'hat'; the labels are: T-shirt/top, Trouser, Pullover, "
                    + "Dress, Coat, Sandal, Shirt, Sneaker, Bag, Ankle boot, none")
        }
        // A look-alike character is named: 'Тrouser' (a Cyrillic Т) read as if it were 'Trouser'.
        do {
            _ = try LabelMatcher.index(of: "\u{422}rouser")
        } catch {
            #expect(error.description.hasPrefix("unknown label '\u{422}rouser' (with U+0422, which no label holds); the labels are: "))
        }
        // A byte that is not UTF-8, as an argument carries it, is named as the byte (it was
        // named U+10FFFF, the scalar that stands for it); a colour's error speaks of colours.
        let byte = #expect(throws: WardrobeError.self) { try LabelMatcher.index(of: "c" + PathName.decode([0xFF]) + "t") }
        #expect(byte?.description.contains("(with the byte \\xFF, which no label holds)") == true, "\(String(describing: byte))")
        #expect(byte?.description.contains("U+10FFFF") == false)
        let colour = #expect(throws: WardrobeError.self) { try ColourSetter.name("r\u{E9}x") }
        #expect(colour?.description.hasPrefix("unknown colour 'r\u{E9}x' (with U+00E9, which no colour holds)") == true,
                "\(String(describing: colour))")
        do {
            _ = try LabelMatcher.index(of: "shoes")
            Issue.record("shoes is ambiguous")
        } catch {
            #expect(error.description == "'shoes' could be Sandal, Sneaker, Ankle boot; say which")
        }
    }

    /// A word holding a character that is not ASCII names no label or colour, wherever the
    /// character is and in either Unicode form; it was left out with the punctuation, so a
    /// Cyrillic Т made `Т-shirt` a Shirt, and a zero-width joiner or a combining accent was
    /// passed over while a precomposed `è` was refused.
    @Test(arguments: ["\u{422}-shirt", "\u{FF34}-shirt", "sh\u{200D}irt", "Dress\u{301}", "Dre\u{300}ss",
                      "Dr\u{E8}ss", "SH\u{130}RT", "\u{212A}", "Ankle\u{A0}boot", "Sneaker\u{1F45F}"])
    func aWordWithACharacterNoLabelHoldsNamesNone(word: String) throws {
        let error = #expect(throws: WardrobeError.self) { try LabelMatcher.index(of: word) }
        #expect(error?.description.hasPrefix("unknown label '\(word)' (with U+") == true, "\(String(describing: error))")
        #expect(throws: WardrobeError.self) { try ColourSetter.name("blac" + word) }
        // ASCII punctuation and case are still forgiven.
        #expect(try LabelMatcher.index(of: "t_SHIRT") == 0)
        #expect(try ColourSetter.name(" Multi-Color ") == "multicolour")
    }

    @Test func datesDaysTimesAndAges() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let now = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01T12:00:00Z
        func parse(_ text: String) throws -> Date { try DateArgument.parse(text, now: now, calendar: calendar) }
        #expect(try parse("2024-05-01") == Date(timeIntervalSince1970: 1_714_514_400))  // local midnight, UTC+2
        #expect(try parse("2024-05-01T14:30") == Date(timeIntervalSince1970: 1_714_566_600))
        #expect(try parse("2024-05-01T14:30:00Z") == Date(timeIntervalSince1970: 1_714_573_800))
        #expect(try parse("2024-05-01T14:30:00+01:00") == Date(timeIntervalSince1970: 1_714_570_200))
        // With a zone and without seconds, as `accepted` says (refused as "invalid date" before).
        #expect(try parse("2024-05-01T14:30Z") == Date(timeIntervalSince1970: 1_714_573_800))
        #expect(try parse("2024-05-01T14:30+01:00") == Date(timeIntervalSince1970: 1_714_570_200))
        #expect(try parse("2024-05-01t14:30-00:30") == Date(timeIntervalSince1970: 1_714_575_600))
        // With a fraction of a second, as `list --json` writes times (refused before).
        #expect(try parse("2024-05-01T14:30:00.250Z") == Date(timeIntervalSince1970: 1_714_573_800.25))
        #expect(try parse("2024-05-01T14:30:00.250+01:00") == Date(timeIntervalSince1970: 1_714_570_200.25))
        #expect(try parse("2024-05-01T14:30:00.250") == Date(timeIntervalSince1970: 1_714_566_600.25))
        // A time the clocks skip (02:30 the night Berlin's go forward) is where they went on to,
        // 03:30 (refused as an invalid date before); one they pass twice is the first.
        #expect(try parse("2024-03-31T02:30") == Date(timeIntervalSince1970: 1_711_848_600))
        #expect(try parse("2024-03-31T03:30") == Date(timeIntervalSince1970: 1_711_848_600))
        #expect(try parse("2024-10-27T02:30") == Date(timeIntervalSince1970: 1_729_989_000))
        #expect(try parse("7d") == now.addingTimeInterval(-7 * 86_400))
        #expect(try parse("12h") == now.addingTimeInterval(-12 * 3_600))
        #expect(try parse("2w") == now.addingTimeInterval(-14 * 86_400))
        #expect(try parse("today") == Date(timeIntervalSince1970: 1_717_192_800))
        #expect(try parse("yesterday") == Date(timeIntervalSince1970: 1_717_106_400))
        for bad in ["2024-02-30", "2024-13-01", "last week", "7 days", "", "-3d", "2024-5-1", "2024-05-01T14:30Q",
                    "2024-05-01T14:3Z", "2024-05-01T14:30+99:00", "2024-05-01T14:30+14:60", "2024-05-01T14:30:00-9999",
                    "2024-05-01T14:30+00:00:00"] {
            #expect(throws: WardrobeError.self, "\(bad)") { try parse(bad) }
        }
    }

    /// Days before 15 October 1582 on the proleptic Gregorian calendar, as the catalogue counts
    /// them and `--json` writes them; Foundation's calendar read them as Julian days (0001-01-01
    /// two days early, 1500-02-29 a day).
    @Test func daysBeforeTheGregorianChangeAreProlepticGregorianDays() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func parse(_ text: String) throws -> Date { try DateArgument.parse(text, calendar: utc) }
        #expect(try parse("0001-01-01") == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(try parse("0001-01-01T00:00") == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(try abs(parse("1582-10-14T23:59:59.999Z").timeIntervalSince1970 + 12_219_292_800.001) < 1e-6)
        #expect(try parse("1582-10-15") == Date(timeIntervalSince1970: -12_219_292_800))
        #expect(try parse("9999-12-31T23:59:59+14:00") == Date(timeIntervalSince1970: 253_402_250_399))
        #expect(throws: WardrobeError.self) { try parse("1500-02-29") }
        #expect(throws: WardrobeError.self) { try parse("1500-02-29T12:00Z") }
        #expect(DateArgument.nextDay(after: "1500-02-28") == "1500-03-01")
        #expect(DateArgument.nextDay(after: "1582-10-04") == "1582-10-05")
        #expect(DateArgument.nextDay(after: "0001-12-31") == "0002-01-01")
        #expect(DateArgument.nextDay(after: "1500-02-29") == nil)
    }

    @Test func imageReferencesByShape() throws {
        #expect(try ImageReference("42") == .id(.init(42)))
        #expect(try ImageReference("3FA9c2") == .hashPrefix("3fa9c2"))
        // No id starts with 0 as `list` shows it: such digits start a hash.
        #expect(try ImageReference("0539") == .hashPrefix("0539"))
        #expect(try ImageReference("007") == .hashPrefix("007"))
        #expect(try ImageReference("/photos/coat.jpg") == .path("/photos/coat.jpg"))
        #expect(try ImageReference("photos/../coat.jpg") == .path(FileManager.default.currentDirectoryPath + "/coat.jpg"))
        #expect(throws: WardrobeError.self) { try ImageReference("coat!") }
        #expect(throws: WardrobeError.self) { try ImageReference(String(repeating: "a", count: 65)) }
    }

    @Test func csvAndJSONRowsEscapeAndStream() throws {
        var chunks: [[UInt8]] = []
        let csv = RowWriter(format: .csv, columns: ["id", "path", "confidence", "when"]) { chunks.append($0) }
        try csv.write([.integer(1), .text("a \"b\", c\nd"), .number(0.25), .date(Date(timeIntervalSince1970: 0.5))])
        try csv.write([.integer(2), .text(nil), .number(1), .date(Date(timeIntervalSince1970: 1_714_573_800))])
        try csv.finish()
        // A line break in a cell is written as a visible \n, so every row is one line.
        #expect(String(decoding: chunks.joined(), as: UTF8.self) == #"""
            id,path,confidence,when
            1,"a ""b"", c\nd",0.25,1970-01-01T00:00:00.500Z
            2,,1,2024-05-01T14:30:00.000Z

            """#)

        chunks = []
        let json = RowWriter(format: .json, columns: ["id", "path", "logits"]) { chunks.append($0) }
        try json.write([.integer(1), .text("tab\there \"q\" \u{1}"), .numbers([1.5, -2, 0.1])])
        try json.write([.integer(2), .text(nil), .numbers([])])
        try json.finish()
        let text = String(decoding: chunks.joined(), as: UTF8.self)
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(decoded?.count == 2)
        #expect(decoded?[0]["path"] as? String == "tab\there \"q\" \u{1}")
        #expect(decoded?[0]["logits"] as? [Double] == [1.5, -2, Double(Float(0.1).description)!])
        #expect(decoded?[1]["path"] is NSNull)

        // Logits at the edges of float32 read back as the same bits: -0.0 kept its sign
        // nowhere (written as 0), the smallest subnormal and the largest finite value whole.
        chunks = []
        let edges: [Float] = [-0.0, 0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude,
                              -.greatestFiniteMagnitude, .leastNormalMagnitude, 16_777_216, -1e7, 1]
        for format in RowFormat.allCases {
            let writer = RowWriter(format: format, columns: ["logits", "confidence"]) { chunks.append($0) }
            try writer.write([.numbers(edges), .number(-0.0)])
            try writer.finish()
        }
        let written = String(decoding: chunks.joined(), as: UTF8.self)
        #expect(written.contains("-0.0 0 1e-45 -1e-45 3.4028235e+38 -3.4028235e+38 1.1754944e-38 16777216.0 -10000000.0 1,-0.0\n"),
                "\(written)")
        #expect(written.contains("[-0.0, 0, 1e-45, -1e-45, 3.4028235e+38, -3.4028235e+38, 1.1754944e-38, 16777216.0, -10000000.0, 1]"),
                "\(written)")
        let readBack = written.split(separator: "\n")[1].split(separator: ",")[0].split(separator: " ").map { Float(String($0))! }
        #expect(readBack.map(\.bitPattern) == edges.map(\.bitPattern))

        chunks = []
        let empty = RowWriter(format: .json, columns: ["id"]) { chunks.append($0) }
        try empty.finish()
        #expect(String(decoding: chunks.joined(), as: UTF8.self) == "[]\n")
    }

    @Test func writerFlushesInChunksNotAllAtTheEnd() throws {
        var sizes: [Int] = []
        let writer = RowWriter(format: .csv, columns: ["n", "text"]) { sizes.append($0.count) }
        for index in 0..<20_000 { try writer.write([.integer(Int64(index)), .text(String(repeating: "x", count: 40))]) }
        #expect(sizes.count >= 10, "written while rows come, in chunks")
        #expect(sizes.allSatisfy { $0 < 70_000 })
        try writer.finish()
    }

    /// CSV injection: a text cell a spreadsheet would run as a formula starts with `'`
    /// and is quoted; numbers, negative ones included, stay numbers; control characters
    /// become visible escapes.
    @Test(arguments: [("=cmd|' /C calc'!A0", #""'=cmd|' /C calc'!A0""#), ("+1", #""'+1""#), ("-2+3", #""'-2+3""#),
                      ("@SUM(A1)", #""'@SUM(A1)""#), ("\tx", #""'\tx""#), ("\rx", #""'\rx""#),
                      ("a=b", "a=b"), ("T-shirt/top", "T-shirt/top"), ("\u{1B}]0;t\u{7}", #"\e]0;t\x07"#)])
    func csvTextCellsAreNeutralised(text: String, cell: String) throws {
        var chunks: [[UInt8]] = []
        let csv = RowWriter(format: .csv, columns: ["text", "number", "logits"]) { chunks.append($0) }
        try csv.write([.text(text), .number(-0.5), .numbers([-1.25, 2])])
        try csv.finish()
        let lines = String(decoding: chunks.joined(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1] == "\(cell),-0.5,-1.25 2")
    }
}
