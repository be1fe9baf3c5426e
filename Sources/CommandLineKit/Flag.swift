/// A flag: true when given, declared on the property it fills:
///
///     @Flag(short: "q", help: "Print nothing but errors and the result.")
///     var quiet: Bool
///
/// The long name is `name`, else the property's name in kebab case. A flag
/// takes no value: `--quiet=yes` is a usage error.
@propertyWrapper
public struct Flag: Declaring {
    private let name: String?
    private let short: Character?
    private let help: String
    private let box = Box(false)

    public var wrappedValue: Bool { box.value }

    public init(name: String? = nil, short: Character? = nil, help: String) {
        self.name = name
        self.short = short
        self.help = help
    }

    func declare(into declarations: inout CommandDeclarations, property: String) {
        let declaration = OptionDeclaration(
            name: name ?? CommandDeclarations.optionName(forProperty: property), short: short,
            valueName: nil, help: help, repeats: false)
        declarations.add(OptionSlot(declaration: declaration) { [box] occurrences throws(Rejection) in
            box.value = !occurrences.isEmpty
        })
    }
}
