extension CommandDeclarations {
    /// The usage line after the command path, written from the declarations
    /// alone, in swift-argument-parser's order: `[options]` for whatever may be
    /// left out, then the forms that exclude each other (`(FILE... | --sample)`,
    /// or in brackets when none is needed), the options the command needs
    /// (`--out FILE`), and the arguments no form names, in brackets when they may
    /// be left out, as their words when they are a fixed set (`bash|zsh|fish`).
    /// Arguments help leaves out stay out of the line too.
    public var usage: String {
        let named = Set(alternatives.flatMap(\.words))
        var parts: [String] = []
        if options.contains(where: { !$0.isRequired && !named.contains($0.name) }) { parts.append("[options]") }
        for group in alternatives {
            let forms = group.forms.map { form in form.map(usageWord).joined(separator: " ") }.joined(separator: " | ")
            parts.append(group.required ? "(\(forms))" : "[\(forms)]")
        }
        for option in options where option.isRequired && !named.contains(option.name) {
            parts.append(usageWord(option.name))
        }
        for argument in arguments where argument.help != nil && named.isDisjoint(with: argument.placeholders) {
            let repeated = argument.name.hasSuffix("...") ? "..." : ""
            let word = argument.choices.map { $0.joined(separator: "|") + repeated } ?? argument.name
            parts.append(argument.isOptional ? "[\(word)]" : word)
        }
        return parts.joined(separator: " ")
    }

    /// An option with its value's placeholder (`--out FILE`); a placeholder as it is.
    private func usageWord(_ word: String) -> String {
        guard let option = options.first(where: { $0.name == word }) else { return word }
        return option.valueName.map { "\(option.name) \($0)" } ?? option.name
    }
}
