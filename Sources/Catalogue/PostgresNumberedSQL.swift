/// A statement written with named parameters (`:image`), as both engines' SQL is written
/// here, turned into what PostgreSQL's protocol takes: each name becomes `$n`, numbered in
/// the order names first appear, a name used again the same number. Text in quotes and
/// comments is left alone, as are casts (`::bigint`).
package struct PostgresNumberedSQL: Sendable {
    /// The SQL with `$1`, `$2`... in place of the names.
    package let sql: String
    /// The names (with their `:`), `$1`'s first.
    package let names: [String]

    package init(_ named: String) {
        var out = "", names: [String] = [], numbers: [String: Int] = [:]
        let scalars = Array(named.unicodeScalars)
        var index = 0
        func copy(until closing: Unicode.Scalar) {
            // Copies a quoted run, its quotes included; a doubled closing quote stays inside.
            out.unicodeScalars.append(scalars[index])
            index += 1
            while index < scalars.count {
                let scalar = scalars[index]
                out.unicodeScalars.append(scalar)
                index += 1
                if scalar == closing {
                    guard index < scalars.count, scalars[index] == closing else { return }
                    out.unicodeScalars.append(scalars[index])
                    index += 1
                }
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "'", "\"":
                copy(until: scalar)
            case "-" where next == "-":
                while index < scalars.count, scalars[index] != "\n" {
                    out.unicodeScalars.append(scalars[index])
                    index += 1
                }
            case ":" where next == ":":
                out += "::"
                index += 2
            case ":" where next.map(Self.startsName) == true:
                var end = index + 1
                while end < scalars.count, Self.continuesName(scalars[end]) { end += 1 }
                var name = ":"
                name.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
                // A multi-row insert names thousands: each looked up, not searched for.
                let number = numbers[name] ?? names.count + 1
                if number > names.count {
                    names.append(name)
                    numbers[name] = number
                }
                out += "$\(number)"
                index = end
            default:
                out.unicodeScalars.append(scalar)
                index += 1
            }
        }
        sql = out
        self.names = names
    }

    private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
        startsName(scalar) || ("0"..."9").contains(scalar)
    }

    /// The values of `arguments` in `$n` order. Every name must be given, and nothing else:
    /// a value left out would silently be NULL.
    func values(_ arguments: PostgresArguments) throws -> [(any PostgresBindable)?] {
        guard arguments.names.count == names.count else {
            throw CatalogueError.invalidArgument("\(arguments.names.count) values for \(names.count) parameters in `\(sql)`")
        }
        // Values added where their parameters are written come in the names' order already.
        if arguments.names == names { return arguments.values }
        let positions = Dictionary(arguments.names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return try names.map { name in
            guard let position = positions[name] else {
                throw CatalogueError.invalidArgument("no value for \(name) in `\(sql)`")
            }
            return arguments.values[position]
        }
    }
}

/// A PostgreSQL statement's values by name.
typealias PostgresArguments = NamedArguments<any PostgresBindable>
