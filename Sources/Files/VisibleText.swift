/// Text from files and catalogues made safe to show to people.
public enum VisibleText {
    /// `text` with every control character made visible: `\n`, `\r`, `\t`, `\e`
    /// and `\x07`-style escapes for the rest of C0, DEL and C1, `\u{202E}` for
    /// Unicode's line separators and its invisible direction controls: embeddings,
    /// overrides, isolates and marks (LRM, RLM, ALM). A file or model name can hold any
    /// of them; printed raw they would move the cursor, retitle or clear the terminal,
    /// split one line in two, or reorder what is drawn around them (`photo<RLM>.jpg`
    /// beside a right-to-left name shows its parts swapped). The command line's tables
    /// and messages and Wardrobe's CSV cells all escape through here.
    ///
    /// So is every other invisible format character (Unicode's category Cf: zero-width
    /// space, byte-order mark, soft hyphen, word joiner, tags): printed raw, `a<ZWSP>.jpg`
    /// looked like `a.jpg` and moved the table's columns. Kept are those that join what is
    /// drawn rather than hide: ZWNJ and ZWJ (Persian words, emoji sequences), and tags after
    /// the black flag (the flags of England, Scotland and Wales).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard holdsControl(text, keepingNewlines: keepingNewlines) else { return text }
        var out = ""
        var inFlag = false
        for scalar in text.unicodeScalars {
            inFlag = scalar.value == 0x1F3F4 || (inFlag && isTag(scalar))
            guard needsEscape(scalar, inFlag: inFlag), !(keepingNewlines && scalar == "\n") else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            // A byte of a file name that is not UTF-8, as Files' PathName carries it.
            case _ where scalar.value >= 0x10FF80: out += "\\x" + hex(scalar.value - 0x10FF00, digits: 2)
            case _ where scalar.value < 0x100: out += "\\x" + hex(scalar.value, digits: 2)
            default: out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return out
    }

    /// A JSON document (or a string literal in one) with every character `escaped` would make
    /// visible written as a JSON escape (`\u202e`, a pair for one past U+FFFF), so the document
    /// shown on a terminal cannot move the cursor or reorder a name, while every JSON reader
    /// reads the same strings. Line breaks, the layout of a printed document, stay; JSON's
    /// writers escape those inside strings. Direction controls and the C1 controls were written
    /// as they are: `list --json` showed `a<RLO>gpj.exe` reversed, as the table no longer did.
    public static func jsonEscaped(_ document: String) -> String {
        guard holdsControl(document, keepingNewlines: true) else { return document }
        var out = ""
        var inFlag = false
        for scalar in document.unicodeScalars {
            inFlag = scalar.value == 0x1F3F4 || (inFlag && isTag(scalar))
            guard needsEscape(scalar, inFlag: inFlag), scalar != "\n" else {
                out.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 { out += "\\u" + hex(UInt32(unit), digits: 4).lowercased() }
        }
        return out
    }

    /// True when `text` holds a character `escaped` would make visible: text that is meant
    /// to be a name, a label or a number never does.
    public static func holdsControl(_ text: String) -> Bool { holdsControl(text, keepingNewlines: false) }

    private static func holdsControl(_ text: String, keepingNewlines: Bool) -> Bool {
        var inFlag = false
        for scalar in text.unicodeScalars {
            inFlag = scalar.value == 0x1F3F4 || (inFlag && isTag(scalar))
            if needsEscape(scalar, inFlag: inFlag), !(keepingNewlines && scalar == "\n") { return true }
        }
        return false
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, inFlag: Bool) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069,
             0x10FF80...0x10FFFF: return true
        case 0x200C, 0x200D: return false
        default:
            guard scalar.properties.generalCategory == .format else { return false }
            return !(inFlag && isTag(scalar))
        }
    }

    /// The characters of `text` that are not ASCII, each once, named as a person can tell them
    /// apart from the letters they look like: `U+0422` (a Cyrillic Т), `the byte \xFF` for a
    /// byte that is not UTF-8 (as `PathName` carries it; as a scalar it was U+10FFFF). For an
    /// error about a word that should be ASCII (a label, an option's choice): `'Тrouser'`
    /// beside "did you mean 'Trouser'?" shows two words that look the same.
    public static func foreignCharacters(in text: String) -> [String] {
        var foreign: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where !scalar.isASCII && !foreign.contains(scalar) { foreign.append(scalar) }
        return foreign.map { scalar in
            guard PathName.isExact(String(scalar)) else { return "the byte " + PathName.display(String(scalar)) }
            return "U+" + hex(scalar.value, digits: 4)
        }
    }

    /// Unicode's tag characters, U+E0020 to U+E007F.
    private static func isTag(_ scalar: Unicode.Scalar) -> Bool { (0xE0020...0xE007F).contains(scalar.value) }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
