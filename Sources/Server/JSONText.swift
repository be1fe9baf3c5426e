import Wardrobe

/// A small JSON object written by hand for the script's replies. Strings are
/// quoted inert in markup (`JSONString.quoted(_:inertInMarkup:)`), so a reply
/// holding a catalogue string (a file named `<script>…`) stays inert even where
/// something reads it as HTML or as a script.
public enum JSONText {
    public enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        case null
    }

    public static func object(_ members: [(String, Value)]) -> String {
        "{" + members.map { quoted($0) + ":" + text(of: $1) }.joined(separator: ",") + "}"
    }

    static func text(of value: Value) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .number(let number): number.isFinite ? String(number) : "null"
        case .null: "null"
        }
    }

    private static func quoted(_ value: String) -> String {
        JSONString.quoted(value, inertInMarkup: true)
    }
}
