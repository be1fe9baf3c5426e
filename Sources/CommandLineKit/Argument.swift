/// A positional argument, declared on the property it fills:
///
///     @Argument(name: "PATH...", help: "Image files or folders to import.")
///     var paths: [String]
///
/// An array takes every remaining word; an optional takes at most one. Words
/// left over once every argument has its share are a usage error
/// ("unexpected argument 'x'"), so a command without arguments refuses any.
/// An optional, or an array with a default (`var paths: [String] = []`), may
/// be left out, and its usage shows it in brackets; any other is one the
/// command needs, and its `validate()` says so when it is missing.
@propertyWrapper
public struct Argument<Value> {
    private let box: Box<Value>

    public var wrappedValue: Value { box.value }

    init(name: String, help: String?, takesRest: Bool, isOptional: Bool, completesAs: String? = nil,
         choices: [String]? = nil, empty: Value,
         read: @escaping (_ words: [String], _ name: String) throws(Rejection) -> Value) {
        let box = Box(empty)
        self.box = box
        let declaration = ArgumentDeclaration(name: name, help: help, takesRest: takesRest, firstWordCompletesAs: completesAs,
                                              isOptional: isOptional, choices: choices)
        DeclarationCollector.add(ArgumentSlot(declaration: declaration) { words throws(Rejection) in
            guard !words.isEmpty else { return }
            box.value = try read(words, name)
        })
    }
}

extension Argument {
    /// Every remaining word, each read by `transform`. `help` nil keeps the
    /// argument out of help.
    public init<T>(name: String, help: String?, transform: @escaping (String) throws -> T) where Value == [T] {
        self.init(name: name, help: help, isOptional: false, empty: [], transform: transform)
    }

    /// Every remaining word, each read by `transform`; none may be given (`wrappedValue`).
    public init<T>(wrappedValue: [T], name: String, help: String?,
                   transform: @escaping (String) throws -> T) where Value == [T] {
        self.init(name: name, help: help, isOptional: true, empty: wrappedValue, transform: transform)
    }

    private init<T>(name: String, help: String?, isOptional: Bool, empty: [T],
                    transform: @escaping (String) throws -> T) where Value == [T] {
        self.init(name: name, help: help, takesRest: true, isOptional: isOptional, empty: empty) { words, name throws(Rejection) in
            var values: [T] = []
            for word in words { values.append(try convert(word, name: name, transform)) }
            return values
        }
    }

    public init(name: String, help: String?) where Value == [String] {
        self.init(name: name, help: help) { $0 }
    }

    /// Every remaining word; none may be given (`wrappedValue`).
    public init(wrappedValue: [String], name: String, help: String?) where Value == [String] {
        self.init(wrappedValue: wrappedValue, name: name, help: help) { $0 }
    }

    /// Every remaining word; the first completes in a shell as the values of the option
    /// `firstWordCompletesAs` (`label LABEL IMAGE...` as `--label`).
    public init(name: String, help: String?, firstWordCompletesAs option: String) where Value == [String] {
        self.init(name: name, help: help, takesRest: true, isOptional: false, completesAs: option, empty: []) { words, _ in words }
    }

    /// At most one word.
    public init(name: String, help: String?) where Value == String? {
        self.init(name: name, help: help, takesRest: false, isOptional: true, empty: nil) { words, _ in words.first }
    }

    /// At most one word, read by `transform`.
    public init<T>(name: String, help: String?, transform: @escaping (String) throws -> T) where Value == T? {
        self.init(name: name, help: help, takesRest: false, isOptional: true, empty: nil) { words, name throws(Rejection) in
            try convert(words[0], name: name, transform)
        }
    }
}
