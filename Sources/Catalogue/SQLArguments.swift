/// The values of one statement's parameters, each under the name the SQL gives it
/// (`[":image": image, ":at": now]` for `... WHERE image_id = :image AND at < :at`), so that
/// the SQL and what is bound to it agree by name, never by counting `?`s or `$n`s: a column
/// or a condition added to a statement cannot shift another's value. Binding checks that the
/// statement has exactly these parameters, so a value left out is an error, not a NULL.
/// Both engines' statements are written this way (`SQLArguments`, `PostgresArguments`).
public struct NamedArguments<Value>: ExpressibleByDictionaryLiteral {
    public private(set) var values: [(name: String, value: Value?)] = []
    /// Where each name is in `values`, and the next suffix `add` tries for each base name:
    /// a multi-row insert adds thousands.
    private var positions: [String: Int] = [:], suffixes: [String: Int] = [:]

    public init(dictionaryLiteral elements: (String, Value?)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// Where `name` (with its `:`) is in `values`.
    func position(of name: String) -> Int? { positions[name] }

    /// The value bound to `name` (with its `:`); setting one a statement builds up as it
    /// adds conditions replaces an earlier value of that name.
    public subscript(name: String) -> Value? {
        get { positions[name].flatMap { values[$0].value } }
        set {
            if let index = positions[name] {
                values[index].value = newValue
            } else {
                positions[name] = values.count
                values.append((name, newValue))
            }
        }
    }

    /// Adds `value` under a name made from `name` (`:label`, or `:label_2` where that is
    /// taken) and returns the name, for SQL built condition by condition: each value is
    /// added where its parameter is written into the SQL.
    public mutating func add(_ value: Value?, as name: String) -> String {
        var unique = ":" + name, suffix = suffixes[name] ?? 1
        while positions[unique] != nil {
            suffix += 1
            unique = ":\(name)_\(suffix)"
        }
        suffixes[name] = suffix
        self[unique] = value
        return unique
    }
}

/// A SQLite statement's values by name.
public typealias SQLArguments = NamedArguments<any SQLBindable>
