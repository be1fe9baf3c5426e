/// One `--name` option or flag, as the parser reads it and help prints it.
public struct OptionDeclaration: Sendable, Equatable {
    /// The long name with its dashes, e.g. `--db`.
    public var name: String
    public var short: Character?
    /// The value's placeholder in help, e.g. `PATH`; nil for a flag.
    public var valueName: String?
    public var help: String
    /// Every occurrence is kept (an array property); otherwise a second one is wrong usage.
    public var repeats: Bool
    /// Without it the command cannot run (a property with neither a default nor an optional type).
    public var isRequired: Bool
    /// The words the value must be one of (an `ArgumentChoice`); nil when any word may do.
    public var choices: [String]?

    public var isFlag: Bool { valueName == nil }
}

/// One positional argument, as help prints it.
public struct ArgumentDeclaration: Sendable, Equatable {
    /// The placeholder, e.g. `FILE...`.
    public var name: String
    /// Nil keeps the argument out of help.
    public var help: String?
    /// Takes every remaining word (an array property); otherwise at most one.
    public var takesRest: Bool
    /// The option whose words the first word completes as (`--label`: `label LABEL IMAGE...`);
    /// nil: the words complete as file names.
    public var firstWordCompletesAs: String? = nil
    /// May be left out: an optional, or an array with a default.
    public var isOptional: Bool = false
    /// The words it must be one of (an `ArgumentChoice`); nil when any word may do.
    public var choices: [String]? = nil

    /// Its placeholders: `LABEL IMAGE...` names `LABEL` and `IMAGE...`.
    var placeholders: [String] { name.split(separator: " ").map(String.init) }
}

/// Everything a command declares, in declaration order (groups expanded in
/// place). Help, the parser and any future shell completion read this one list.
///
/// Found without reflection: each property wrapper adds itself while a fresh
/// value of the command is being made (stored properties are initialised in
/// declaration order). Mirror would find them too, but resolving every
/// field's generic type costs about 2 ms at each start of the tool.
public struct CommandDeclarations {
    public private(set) var options: [OptionDeclaration] = []
    public private(set) var arguments: [ArgumentDeclaration] = []
    /// The command's forms that exclude each other (`CommandConfiguration.alternatives`).
    public private(set) var alternatives: [Alternatives] = []
    var optionSlots: [OptionSlot] = []
    var argumentSlots: [ArgumentSlot] = []
    /// Whose `validate()` runs, in order: every group, then the command itself.
    var validated: [any ParsableArguments] = []

    public init(of type: (some ParsableArguments).Type) {
        self = Self.declare(type).declarations
    }

    /// A fresh value of `type` with the declarations its properties made,
    /// which fill that very value.
    static func declare<Arguments: ParsableArguments>(
        _ type: Arguments.Type
    ) -> (value: Arguments, declarations: CommandDeclarations) {
        let collector = DeclarationCollector()
        let value = DeclarationCollector.$current.withValue(collector) { Arguments() }
        collector.declarations.validated.append(value)
        if let command = type as? any Command.Type {
            collector.declarations.alternatives = command.configuration.alternatives
        }
        return (value, collector.declarations)
    }

    mutating func add(_ slot: OptionSlot) {
        options.append(slot.declaration)
        optionSlots.append(slot)
    }

    mutating func add(_ slot: ArgumentSlot) {
        arguments.append(slot.declaration)
        argumentSlots.append(slot)
    }

    /// Mistakes in the declarations themselves: a name declared twice, a name
    /// without its dashes, an array argument before another, an alternative
    /// naming what nothing declares. Empty when sound;
    /// the parser refuses to run a command that has any.
    public var problems: [String] {
        var problems: [String] = []
        var names: Set<String> = ["--help"]
        var shorts: Set<Character> = ["h"]
        for option in options {
            let body = option.name.dropFirst(2)
            if !option.name.hasPrefix("--") || body.isEmpty || body.hasPrefix("-")
                || body.contains(where: { $0 == "=" || $0.isWhitespace }) {
                problems.append("'\(option.name)' is not a long option name like --name")
            }
            if !names.insert(option.name).inserted { problems.append("\(option.name) is declared twice") }
            if let short = option.short {
                if !shorts.insert(short).inserted { problems.append("-\(short) is declared twice") }
                if short == "-" || short.isWhitespace { problems.append("'-\(short)' is not a short option name") }
            }
        }
        for (index, argument) in arguments.enumerated() where argument.takesRest && index < arguments.count - 1 {
            problems.append("argument \(argument.name) takes the rest of the words, so it must be the last")
        }
        let placeholders = Set(arguments.flatMap(\.placeholders))
        for word in alternatives.flatMap({ $0.forms.joined() }) {
            let declared = word.hasPrefix("-") ? names.contains(word) && word != "--help" : placeholders.contains(word)
            if !declared { problems.append("alternative '\(word)' names no declared option or argument") }
        }
        return problems
    }
}

/// Collects the declarations of the value being made on this thread.
/// Unchecked: one collector is used only by the thread that makes the value.
final class DeclarationCollector: @unchecked Sendable {
    @TaskLocal static var current: DeclarationCollector?
    var declarations = CommandDeclarations.empty

    static func add(_ slot: OptionSlot) { current?.declarations.add(slot) }
    static func add(_ slot: ArgumentSlot) { current?.declarations.add(slot) }
    static func addGroup(_ group: any ParsableArguments) { current?.declarations.validated.append(group) }
}

extension CommandDeclarations {
    fileprivate static var empty: CommandDeclarations { CommandDeclarations() }
    private init() {}
}

/// Where the parsed words of one option go.
struct OptionSlot {
    var declaration: OptionDeclaration
    /// Given every value of the option in order (empty when it was not given,
    /// one empty string per occurrence of a flag), stores what the property holds.
    var fill: (_ values: [String]) throws(Rejection) -> Void
}

/// Where the positional words of one argument go.
struct ArgumentSlot {
    var declaration: ArgumentDeclaration
    var fill: (_ words: [String]) throws(Rejection) -> Void
}

/// A value that cannot be read; becomes a `UsageError` for the command.
struct Rejection: Error {
    var message: String
}

/// The storage behind a declared property: shared by the command value the
/// parser made and the declarations it found on it, so filling one fills the other.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Reads one word with a declaration's transform, turning what it throws into
/// the message the user sees.
func convert<T>(_ word: String, name: String, _ transform: (String) throws -> T) throws(Rejection) -> T {
    do {
        return try transform(word)
    } catch let error as ValueError {
        throw Rejection(message: error.message(name))
    } catch {
        throw Rejection(message: String(describing: error))
    }
}

/// The transform of every LosslessStringConvertible value: `Int("12")`.
func losslessTransform<T: LosslessStringConvertible>(_ word: String) throws -> T {
    guard let value = T(word) else {
        let reason = whyNot(word, T.self).map { ": \($0)" } ?? ""
        throw ValueError { "invalid value '\(word)' for \($0)\(reason)" }
    }
    return value
}

/// Why `word` is no number of type `T`, for the numbers options take: 'invalid value
/// '-1' for --seed' left a person to guess that a seed cannot be negative, and '1e400'
/// for --epochs whether it was the size or the notation.
func whyNot<T>(_ word: String, _ type: T.Type) -> String? {
    if let integer = type as? any FixedWidthInteger.Type {
        let sign = word.first == "-" || word.first == "+" ? 1 : 0
        let digits = word.dropFirst(sign)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "not a whole number" }
        if word.first == "-" { return integer.isSigned ? "below \(integer.min)" : "must be 0 or more" }
        return "above \(integer.max)"
    }
    if type is any BinaryFloatingPoint.Type { return "not a number" }
    return nil
}

/// A transform that also keeps the value within `range`.
func rangeTransform<T: LosslessStringConvertible & Comparable>(_ range: ClosedRange<T>) -> (String) throws -> T {
    // A bound as large as the type allows is no bound to a person: `--limit -1`
    // says "must be 0 or more", not "between 0 and 9223372036854775807".
    let unbounded = "\(range.upperBound)".count > 12
    let bounds = unbounded ? "\(range.lowerBound) or more" : "between \(range.lowerBound) and \(range.upperBound)"
    return { word in
        let value: T = try losslessTransform(word)
        guard range.contains(value) else { throw ValueError { "\($0) must be \(bounds) (not \(word))" } }
        return value
    }
}
