/// The values of one statement's parameters, each under the name the SQL gives it
/// (`[":image": image, ":at": now]` for `... WHERE image_id = :image AND at < :at`), so that
/// the SQL and what is bound to it agree by name, never by counting `?`s or `$n`s: a column
/// or a condition added to a statement cannot shift another's value. Binding checks that the
/// statement has exactly these parameters, so a value left out is an error, not a NULL.
/// Both engines' statements are written this way (`SQLArguments`, `PostgresArguments`).
public struct NamedArguments<Value>: ExpressibleByDictionaryLiteral {
    /// The parameters' names (with their `:`), and each one's value at the same place: two
    /// arrays, so that a statement whose names come in this order takes the values as they are.
    public private(set) var names: [String]
    public private(set) var values: [Value?]

    public init(dictionaryLiteral elements: (String, Value?)...) {
        names = elements.map(\.0)
        values = elements.map(\.1)
    }

    /// The value bound to `name` (with its `:`); setting one a statement builds up as it
    /// adds conditions replaces an earlier value of that name.
    public subscript(name: String) -> Value? {
        get { names.firstIndex(of: name).flatMap { values[$0] } }
        set {
            if let index = names.firstIndex(of: name) {
                values[index] = newValue
            } else {
                names.append(name)
                values.append(newValue)
            }
        }
    }

    /// Adds `value` under a name made from `name` and its place among the values (`:label_3`),
    /// and returns the name, for SQL built condition by condition or row by row: each value is
    /// added where its parameter is written into the SQL. The place makes the name unique
    /// without a search, which a multi-row insert of thousands of values would pay for.
    public mutating func add(_ value: Value?, as name: String) -> String {
        let unique = ":\(name)_\(names.count + 1)"
        names.append(unique)
        values.append(value)
        return unique
    }
}

/// A SQLite statement's values by name.
public typealias SQLArguments = NamedArguments<any SQLBindable>
