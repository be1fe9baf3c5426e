/// SQLite's GLOB, which `list --path` patterns are written in, as a PostgreSQL
/// regular expression (PostgreSQL has no GLOB; LIKE knows no `[...]`): `*` any
/// run of characters, `?` one character, `[...]` one of a set (`[^...]` none
/// of it, a `]` first in the set is itself), everything else itself, case
/// sensitive, matched against the whole path.
enum PostgresGlob {
    static func regex(_ glob: String) -> String {
        var regex = "^"
        let characters = Array(glob)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            case "[":
                if let end = setEnd(in: characters, from: index) {
                    regex += set(characters[(index + 1)..<end])
                    index = end
                } else {
                    regex += "\\["  // no closing bracket: SQLite matches nothing; a literal [ is near enough
                }
            default: regex += escaped(character)
            }
            index += 1
        }
        return regex + "$"
    }

    /// The index of the `]` that closes the set opened at `start`, as SQLite reads it.
    private static func setEnd(in characters: [Character], from start: Int) -> Int? {
        var index = start + 1
        if index < characters.count, characters[index] == "^" { index += 1 }
        if index < characters.count, characters[index] == "]" { index += 1 }
        while index < characters.count {
            if characters[index] == "]" { return index }
            index += 1
        }
        return nil
    }

    /// A set's inside as a bracket expression; ranges stay ranges, a backslash is itself.
    private static func set(_ inside: ArraySlice<Character>) -> String {
        var body = Array(inside)
        var result = "["
        if body.first == "^" {
            result += "^"
            body.removeFirst()
        }
        for character in body {
            result += character == "\\" ? "\\\\" : String(character)
        }
        return result + "]"
    }

    private static func escaped(_ character: Character) -> String {
        "\\^$.|+()[]{}*?".contains(character) ? "\\" + String(character) : String(character)
    }
}
