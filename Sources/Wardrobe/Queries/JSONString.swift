import Files

/// A string as a JSON string literal (RFC 8259): the one escaper of the
/// exports' JSON and the server's replies. Quotes, backslashes and control
/// characters are escaped, and the invisible ones a terminal would act on or reorder by
/// (`VisibleText.jsonEscaped`); everything else is written as it is (JSON is UTF-8).
public enum JSONString {
    /// `inertInMarkup` also writes `<`, `>`, `&`, `'`, DEL and the two Unicode
    /// line separators as `\u` escapes, so a reply holding a catalogue string (a
    /// file named `<script>…`) stays inert even where something reads it as HTML
    /// or as a script.
    public static func quoted(_ text: String, inertInMarkup: Bool = false) -> String {
        var quoted = "\""
        quoted.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "\u{00}"..."\u{1F}": quoted += unicodeEscape(scalar)
            case _ where inertInMarkup && markup.contains(scalar): quoted += unicodeEscape(scalar)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return VisibleText.jsonEscaped(quoted + "\"")
    }

    /// What `inertInMarkup` escapes beyond the control characters.
    private static let markup: Set<Unicode.Scalar> = ["<", ">", "&", "'", "\u{7F}", "\u{2028}", "\u{2029}"]

    /// `\u001b`: four lowercase hex digits.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
