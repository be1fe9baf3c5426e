/// An option that takes a value, declared on the property it fills:
///
///     @Option(name: "--top", value: "K", help: "Show the K most likely labels.", in: 1...10)
///     var top = 1
///     @Option(name: "--db", value: "PATH", help: "The catalogue file.")
///     var database: String?
///
/// Given twice, it is wrong usage ("--db given twice"); an array property keeps
/// every value instead. A word that is not a valid value, or lies outside `range`, is a
/// usage error naming the option. A property with neither a default nor an
/// optional type is required: without it, "missing --out FILE".
@propertyWrapper
public struct Option<Value> {
    /// Nil only for a required option not (yet) given.
    private let box: Box<Value?>

    public var wrappedValue: Value {
        guard let value = box.value else { preconditionFailure("a required option was read before it was parsed") }
        return value
    }

    /// `read` turns the given words (never empty) into the property's value;
    /// `choices`, when the value is one of a fixed set of words, are those words.
    init(default value: Value?, name: String, short: Character?, valueName: String, help: String,
         repeats: Bool, choices: [String]? = nil,
         read: @escaping (_ words: [String], _ name: String) throws(Rejection) -> Value) {
        let box = Box(value)
        self.box = box
        let required = value == nil
        let declaration = OptionDeclaration(name: name, short: short, valueName: valueName, help: help, repeats: repeats,
                                            isRequired: required, choices: choices)
        DeclarationCollector.add(OptionSlot(declaration: declaration) { words throws(Rejection) in
            guard !words.isEmpty else {
                if required { throw Rejection(message: "missing \(name) \(valueName)") }
                return
            }
            box.value = try read(words, name)
        })
    }
}

extension Option {
    /// One value read by `transform`, `wrappedValue` when not given.
    public init(wrappedValue: Value, name: String, short: Character? = nil, value: String, help: String,
                transform: @escaping (String) throws -> Value) {
        self.init(default: wrappedValue, name: name, short: short, valueName: value, help: help, repeats: false) {
            words, name throws(Rejection) in try convert(words[0], name: name, transform)
        }
    }

    /// One value read by `transform`, required.
    public init(name: String, short: Character? = nil, value: String, help: String,
                transform: @escaping (String) throws -> Value) {
        self.init(default: nil, name: name, short: short, valueName: value, help: help, repeats: false) {
            words, name throws(Rejection) in try convert(words[0], name: name, transform)
        }
    }

    /// One value read by `transform`, nil when not given.
    public init<T>(name: String, short: Character? = nil, value: String, help: String,
                   transform: @escaping (String) throws -> T) where Value == T? {
        self.init(default: .some(nil), name: name, short: short, valueName: value, help: help, repeats: false) {
            words, name throws(Rejection) in try convert(words[0], name: name, transform)
        }
    }

    /// Every value given, each read by `transform`.
    public init<T>(wrappedValue: [T] = [], name: String, short: Character? = nil, value: String, help: String,
                   transform: @escaping (String) throws -> T) where Value == [T] {
        self.init(default: wrappedValue, name: name, short: short, valueName: value, help: help, repeats: true) {
            words, name throws(Rejection) in
            var values: [T] = []
            for word in words { values.append(try convert(word, name: name, transform)) }
            return values
        }
    }
}

extension Option where Value: LosslessStringConvertible {
    /// Required: without it, a usage error.
    public init(name: String, short: Character? = nil, value: String, help: String) {
        self.init(name: name, short: short, value: value, help: help, transform: losslessTransform)
    }

    public init(wrappedValue: Value, name: String, short: Character? = nil, value: String, help: String) {
        self.init(wrappedValue: wrappedValue, name: name, short: short, value: value, help: help,
                  transform: losslessTransform)
    }
}

extension Option where Value: LosslessStringConvertible & Comparable {
    public init(wrappedValue: Value, name: String, short: Character? = nil, value: String, help: String,
                in range: ClosedRange<Value>) {
        self.init(wrappedValue: wrappedValue, name: name, short: short, value: value, help: help,
                  transform: rangeTransform(range))
    }
}

extension Option {
    public init<T: LosslessStringConvertible>(name: String, short: Character? = nil, value: String,
                                              help: String) where Value == T? {
        self.init(name: name, short: short, value: value, help: help, transform: losslessTransform as (String) throws -> T)
    }

    public init<T: LosslessStringConvertible & Comparable>(name: String, short: Character? = nil, value: String,
                                                           help: String, in range: ClosedRange<T>) where Value == T? {
        self.init(name: name, short: short, value: value, help: help, transform: rangeTransform(range))
    }

    public init<T: LosslessStringConvertible>(wrappedValue: [T] = [], name: String, short: Character? = nil,
                                              value: String, help: String) where Value == [T] {
        self.init(wrappedValue: wrappedValue, name: name, short: short, value: value, help: help,
                  transform: losslessTransform as (String) throws -> T)
    }
}
