/// A flag: true when given, declared on the property it fills:
///
///     @Flag(name: "--quiet", short: "q", help: "Print nothing but errors and the result.")
///     var quiet: Bool
///
/// A flag takes no value: `--quiet=yes` is a usage error.
@propertyWrapper
public struct Flag {
    private let box = Box(false)

    public var wrappedValue: Bool { box.value }

    public init(name: String, short: Character? = nil, help: String) {
        let declaration = OptionDeclaration(name: name, short: short, valueName: nil, help: help, repeats: false,
                                            isRequired: false, choices: nil)
        DeclarationCollector.add(OptionSlot(declaration: declaration) { [box] occurrences throws(Rejection) in
            box.value = !occurrences.isEmpty
        })
    }
}
