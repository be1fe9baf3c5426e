/// The options and positional arguments of one command, parsed by its spec.
/// Typed accessors turn malformed values into usage errors naming the option.
struct ParsedArguments: Sendable {
    var commandPath: [String]
    var flags: Set<String> = []
    var options: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for an option (later ones win, as in most tools).
    func value(_ name: String) -> String? { options[name]?.last }

    func values(_ name: String) -> [String] { options[name] ?? [] }

    func value<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws(UsageError) -> T? {
        guard let text = value(name) else { return nil }
        guard let parsed = T(text) else {
            throw UsageError("invalid value '\(text)' for \(name)", commandPath: commandPath)
        }
        return parsed
    }

    /// A number option that must lie in a range, e.g. a confidence in 0...1.
    func value<T: LosslessStringConvertible & Comparable>(
        _ name: String, as type: T.Type, in range: ClosedRange<T>
    ) throws(UsageError) -> T? {
        guard let parsed = try value(name, as: type) else { return nil }
        guard range.contains(parsed) else {
            throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound)", commandPath: commandPath)
        }
        return parsed
    }

    /// For commands that take at most `count` positional arguments: the
    /// first one too many is a usage error naming it.
    func allowPositionals(atMost count: Int = 0) throws(UsageError) {
        guard positionals.count <= count else {
            throw usageError("unexpected argument '\(positionals[count])'")
        }
    }

    func usageError(_ message: String) -> UsageError {
        UsageError(message, commandPath: commandPath)
    }
}
