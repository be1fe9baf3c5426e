/// Splits a command line into a command and its parsed arguments, following
/// the conventions of git and swift-argument-parser: subcommands by name,
/// `--name value` and `--name=value`, `-h`/`--help` anywhere, `--` ends options.
enum ArgumentParser {
    enum Outcome {
        case run(any Command.Type, ParsedArguments)
        case help(any Command.Type, commandPath: [String])
    }

    static func parse(_ words: [String], root: any Command.Type) throws(UsageError) -> Outcome {
        var command = root
        var path: [String] = []
        var rest = words[...]

        // `wardrobe help [sub...]` is the same as `wardrobe [sub...] --help`.
        if rest.first == "help" {
            rest = rest.dropFirst()
            for word in rest {
                guard let sub = command.spec.subcommands.first(where: { $0.spec.name == word }) else {
                    throw UsageError("unknown command '\(word)'", commandPath: path)
                }
                command = sub
                path.append(word)
            }
            return .help(command, commandPath: path)
        }

        while !command.spec.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") {
            guard let sub = command.spec.subcommands.first(where: { $0.spec.name == word }) else {
                throw UsageError("unknown command '\(word)'", commandPath: path)
            }
            command = sub
            path.append(word)
            rest = rest.dropFirst()
        }

        var parsed = ParsedArguments(commandPath: path)
        let spec = command.spec
        var onlyPositionals = false
        while let word = rest.popFirst() {
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "-h" || word == "--help" { return .help(command, commandPath: path) }

            var name = word
            var attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                attached = String(word[word.index(after: equals)...])
            }
            let option: OptionSpec?
            if name.hasPrefix("--") {
                option = spec.options.first { $0.name == name }
            } else if name.count == 2 {
                option = spec.options.first { $0.short == name.last }
            } else {
                option = nil
            }
            guard let option else {
                throw UsageError("unknown option '\(name)'", commandPath: path)
            }
            if option.value == nil {
                guard attached == nil else {
                    throw UsageError("\(option.name) takes no value", commandPath: path)
                }
                parsed.flags.insert(option.name)
                continue
            }
            guard let value = attached ?? rest.popFirst() else {
                throw UsageError("\(option.name) needs a value (\(option.value!))", commandPath: path)
            }
            if !option.repeatable, parsed.options[option.name] != nil {
                parsed.options[option.name] = [value]
            } else {
                parsed.options[option.name, default: []].append(value)
            }
        }
        if !spec.subcommands.isEmpty, command is any CommandGroup.Type {
            return .help(command, commandPath: path)
        }
        return .run(command, parsed)
    }
}
