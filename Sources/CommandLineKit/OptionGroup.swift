/// Options shared by several commands, declared once in their own
/// `ParsableArguments` type and included where needed:
///
///     @OptionGroup var catalogue: CatalogueOptions
///
/// Its options appear in help where the group is declared; its `validate()`
/// runs before the command's.
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments>: Declaring {
    public let wrappedValue: Group

    public init() {
        wrappedValue = Group()
    }

    func declare(into declarations: inout CommandDeclarations, property: String) {
        declarations.collect(from: wrappedValue)
    }
}
