/// Options shared by several commands, declared once in their own
/// `ParsableArguments` type and included where needed:
///
///     @OptionGroup var catalogue: CatalogueOptions
///
/// Its options appear in help where the group is declared; its `validate()`
/// runs before the command's.
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments> {
    public let wrappedValue: Group

    public init() {
        // Made here, so the group's own options declare themselves in this place.
        wrappedValue = Group()
        DeclarationCollector.addGroup(wrappedValue)
    }
}
