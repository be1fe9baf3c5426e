/// A small JSON object written by hand for the script's replies. Strings are
/// escaped for JSON and, beyond that, `<`, `>`, `&`, `'` and the two Unicode
/// line separators become `\u` escapes, so a reply holding a catalogue string
/// (a file named `<script>…`) stays inert even where something reads it as
/// HTML or as a script.
public enum JSONText {
    public enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        case null
    }

    public static func object(_ members: [(String, Value)]) -> String {
        "{" + members.map { quote($0) + ":" + text(of: $1) }.joined(separator: ",") + "}"
    }

    static func text(of value: Value) -> String {
        switch value {
        case .string(let string): quote(string)
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .number(let number): number.isFinite ? String(number) : "null"
        case .null: "null"
        }
    }

    public static func quote(_ value: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "<", ">", "&", "'", "\u{2028}", "\u{2029}", "\u{00}"..."\u{1F}", "\u{7F}":
                quoted += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
