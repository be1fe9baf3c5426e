/// A value named by one of a fixed set of words: an enum whose raw values are
/// those words. An option or argument of such a type reads its word here (case
/// does not matter), refuses any other with the list of the words, shows them
/// in its usage (`bash|zsh|fish`) and completes them in a shell, as
/// swift-argument-parser's `ExpressibleByArgument` enums do.
///
///     enum RowFormat: String, CaseIterable, ArgumentChoice { case csv, json }
///     @Option(name: "--format", value: "csv|json", help: "The output format.")
///     var format = RowFormat.csv
public protocol ArgumentChoice: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension ArgumentChoice {
    /// The words, in the order of the cases.
    static var words: [String] { allCases.map(\.rawValue) }

    /// The case `word` names; anything else is "unknown --format 'xml'; use csv or json",
    /// or "unknown SHELL 'bsh'; did you mean 'bash'? (use bash, zsh or fish)" near one.
    static func named(_ word: String) throws -> Self {
        if let exact = Self(rawValue: word) { return exact }
        guard let value = allCases.first(where: { $0.rawValue.lowercased() == word.lowercased() }) else {
            let words = Self.words
            let listed = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.joined()
            throw ValueError { name in
                let unknown = "unknown \(name) '\(word)'"
                let suggested = Suggestion.appending(to: unknown, for: word, among: words)
                return suggested == unknown ? "\(unknown); use \(listed)" : "\(suggested) (use \(listed))"
            }
        }
        return value
    }
}

extension Option where Value: ArgumentChoice {
    public init(wrappedValue: Value, name: String, short: Character? = nil, value: String, help: String) {
        self.init(default: wrappedValue, name: name, short: short, valueName: value, help: help, repeats: false,
                  choices: Value.words) { words, name throws(Rejection) in try convert(words[0], name: name, Value.named) }
    }
}

extension Option {
    /// Nil when not given.
    public init<T: ArgumentChoice>(name: String, short: Character? = nil, value: String, help: String) where Value == T? {
        self.init(default: .some(nil), name: name, short: short, valueName: value, help: help, repeats: false,
                  choices: T.words) { words, name throws(Rejection) in try convert(words[0], name: name, T.named) }
    }
}

extension Argument {
    /// Every remaining word, each one of `T`'s words.
    public init<T: ArgumentChoice>(name: String, help: String?) where Value == [T] {
        self.init(name: name, help: help, takesRest: true, isOptional: false, choices: T.words, empty: []) {
            words, name throws(Rejection) in
            var values: [T] = []
            for word in words { values.append(try convert(word, name: name, T.named)) }
            return values
        }
    }
}
