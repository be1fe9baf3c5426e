/// Forms of a command that exclude each other (`FILE... | --sample`), each
/// written with the declared names of its options and the placeholders of its
/// arguments: the usage line shows them, and `CommandDeclarations.problems`
/// finds a name that nothing declares. Which form was given is checked by the
/// command's `validate()`, whose messages say it in the command's own words.
public struct Alternatives: Sendable, Equatable {
    /// Each form's words: option names (`--images`, shown with their value
    /// names) and argument placeholders (`IMAGE...`; an argument declared as
    /// `LABEL IMAGE...` may be named by either of its words).
    public var forms: [[String]]
    /// One of the forms must be given: `(a | b)`; otherwise `[a | b]`.
    public var required: Bool

    /// Exactly one of `forms` is given.
    public static func oneOf(_ forms: [String]...) -> Alternatives {
        Alternatives(forms: forms, required: true)
    }

    /// One of `forms`, or none.
    public static func atMostOneOf(_ forms: [String]...) -> Alternatives {
        Alternatives(forms: forms, required: false)
    }

    /// Every word the forms name.
    var words: Set<String> { Set(forms.joined()) }
}
