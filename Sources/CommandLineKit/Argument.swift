/// A positional argument, declared on the property it fills:
///
///     @Argument(name: "PATH...", help: "Image files or folders to import.")
///     var paths: [String]
///
/// An array takes every remaining word; an optional takes at most one. Words
/// left over once every argument has its share are a usage error
/// ("unexpected argument 'x'"), so a command without arguments refuses any.
@propertyWrapper
public struct Argument<Value>: Declaring {
    private let name: String
    private let help: String?
    private let takesRest: Bool
    private let box: Box<Value>
    private let read: (_ words: [String], _ name: String) throws(Rejection) -> Value

    public var wrappedValue: Value { box.value }

    func declare(into declarations: inout CommandDeclarations, property: String) {
        let declaration = ArgumentDeclaration(name: name, help: help, takesRest: takesRest)
        declarations.add(ArgumentSlot(declaration: declaration) { [box, read] words throws(Rejection) in
            guard !words.isEmpty else { return }
            box.value = try read(words, declaration.name)
        })
    }
}

extension Argument {
    /// Every remaining word, each read by `transform`. `help` nil keeps the
    /// argument out of help.
    public init<T>(name: String, help: String?, transform: @escaping (String) throws -> T) where Value == [T] {
        self.name = name
        self.help = help
        takesRest = true
        box = Box([])
        read = { words, name throws(Rejection) in
            var values: [T] = []
            for word in words { values.append(try convert(word, name: name, transform)) }
            return values
        }
    }

    public init(name: String, help: String?) where Value == [String] {
        self.init(name: name, help: help) { $0 }
    }

    /// At most one word.
    public init(name: String, help: String?) where Value == String? {
        self.name = name
        self.help = help
        takesRest = false
        box = Box(nil)
        read = { words, _ in words.first }
    }
}
