import Files

/// Splits a command line into a command and fills its declarations, following
/// the conventions of git and swift-argument-parser: subcommands by name,
/// `--name value` and `--name=value`, a short `-x` for options that declare
/// one (no bundling: `-qv` is unknown), `-h`/`--help` anywhere, `--` ends
/// options, `-` alone is a positional. An option's value is the next word
/// whatever it looks like, so `--offset -5` works.
public enum ArgumentParser {
    public enum Outcome {
        /// A command ready to run: every declaration filled and validated.
        case run(any Command, commandPath: [String])
        case help(any Command.Type, commandPath: [String])
    }

    public static func parse(_ words: [String], root: any Command.Type) throws(UsageError) -> Outcome {
        var command = root
        var path: [String] = []
        var rest = words[...]

        // Options a subcommand declares may come before it, as git's and kubectl's
        // global options do (`wardrobe --db x.sqlite list`): they are set aside and
        // read as the subcommand's own, before the words that follow it.
        var leading: [String] = []
        while !command.configuration.subcommands.isEmpty, let word = rest.first {
            // `tool [group...] help [sub...]` is the same as `tool [group...] [sub...] --help`.
            if word == "help" {
                for word in rest.dropFirst() {
                    command = try subcommand(word, of: command, path: path)
                    path.append(word)
                }
                return .help(command, commandPath: path)
            }
            if word.hasPrefix("-") && word != "-" {
                guard let option = optionBefore(word, below: command) else { break }
                leading.append(word)
                rest = rest.dropFirst()
                if option.valueName != nil && !word.contains("=") {
                    guard let value = rest.popFirst() else {
                        throw UsageError("\(option.name) needs a value (\(option.valueName!))", commandPath: path)
                    }
                    leading.append(value)
                }
                continue
            }
            command = try subcommand(word, of: command, path: path)
            path.append(word)
            rest = rest.dropFirst()
        }
        rest = ArraySlice(leading + rest)

        let (value, declarations) = declare(command)
        let problems = declarations.problems
        precondition(problems.isEmpty, "\((path).joined(separator: " ")): \(problems.joined(separator: "; "))")

        var given: [String: [String]] = [:]
        var positionals: [String] = []
        var onlyPositionals = false
        while let word = rest.popFirst() {
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                guard !word.isEmpty else { throw UsageError("an argument is empty ('')", commandPath: path) }
                if !onlyPositionals, let meant = Self.optionTypedWithADash(word, among: declarations.options.map(\.name)) {
                    throw UsageError("'\(word)' starts with \(meant.dash), not '--'; did you mean '\(meant.option)'?",
                                     commandPath: path)
                }
                positionals.append(word)
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
            let option: OptionDeclaration?
            if name.hasPrefix("--") {
                option = declarations.options.first { $0.name == name }
            } else if name.count == 2 {
                option = declarations.options.first { $0.short == name.last }
            } else {
                option = nil
            }
            guard let option else {
                // An option of a subcommand with no command after it (`wardrobe --db x`): it was
                // "unknown option '--db'", of an option the tool has and its help names.
                if !command.configuration.subcommands.isEmpty, optionBefore(word, below: command) != nil {
                    throw UsageError("\(name) is an option of a command; name the command, before or after it "
                                     + "(\(command.configuration.name) COMMAND \(name) ...)", commandPath: path)
                }
                let names = declarations.options.map(\.name) + ["--help"]
                throw UsageError(Suggestion.appending(to: "unknown option '\(name)'", for: name, among: names),
                                 commandPath: path)
            }
            guard let valueName = option.valueName else {
                guard attached == nil else { throw UsageError("\(option.name) takes no value", commandPath: path) }
                given[option.name, default: []].append("")
                continue
            }
            guard let value = attached ?? rest.popFirst() else {
                throw UsageError("\(option.name) needs a value (\(valueName))", commandPath: path)
            }
            // An empty value is a slip (`--db "$DB"` with DB unset), never a wish: taken as given it
            // meant the default catalogue or model, or a file named "".
            guard !value.isEmpty else {
                throw UsageError("\(option.name) needs a value (\(valueName)), not an empty one", commandPath: path)
            }
            // A single-valued option given twice is a contradiction, not a correction: `--db a
            // --db b` (often one from an alias or a script, one typed) used the last without a
            // word, so a command could write to a catalogue other than the one a person saw.
            guard option.repeats || given[option.name] == nil else {
                throw UsageError("\(option.name) given twice", commandPath: path)
            }
            given[option.name, default: []].append(value)
        }
        if !command.configuration.subcommands.isEmpty, command is any CommandGroup.Type {
            return .help(command, commandPath: path)
        }

        do throws(Rejection) {
            for slot in declarations.argumentSlots {
                let take = slot.declaration.takesRest ? positionals.count : min(1, positionals.count)
                try slot.fill(Array(positionals.prefix(take)))
                positionals.removeFirst(take)
            }
            if let extra = positionals.first {
                throw Rejection(message: "unexpected argument '\(extra)'")
            }
            for slot in declarations.optionSlots {
                try slot.fill(given[slot.declaration.name] ?? [])
            }
        } catch {
            throw UsageError(error.message, commandPath: path)
        }
        for arguments in declarations.validated {
            do {
                try arguments.validate()
            } catch {
                throw UsageError(error.message, commandPath: path)
            }
        }
        return .run(value, commandPath: path)
    }

    /// A fresh value of `command` and its declarations.
    static func declare<C: Command>(_ command: C.Type) -> (any Command, CommandDeclarations) {
        CommandDeclarations.declare(command)
    }

    /// The subcommand of `command` named `word`.
    static func subcommand(_ word: String, of command: any Command.Type,
                           path: [String]) throws(UsageError) -> any Command.Type {
        guard let sub = command.configuration.subcommands.first(where: { $0.configuration.name == word }) else {
            let names = command.configuration.subcommands.map { $0.configuration.name }
            throw UsageError(Suggestion.appending(to: "unknown command '\(word)'", for: word, among: names),
                             commandPath: path)
        }
        return sub
    }

    /// The declaration of an option word (`--db`, `--db=x`, `-q`) given before a
    /// subcommand, if any command below `command` declares it; nil for `-h`, `--`
    /// and names none declares (reported by the command itself).
    static func optionBefore(_ word: String, below command: any Command.Type) -> OptionDeclaration? {
        guard word != "--", word != "-h", word != "--help" else { return nil }
        let name = word.hasPrefix("--") ? String(word.prefix { $0 != "=" }) : word
        return optionsBelow(command).first { option in
            name.hasPrefix("--") ? option.name == name : (name.count == 2 && option.short == name.last)
        }
    }

    /// Every option declared by `command` and the commands below it.
    static func optionsBelow(_ command: any Command.Type) -> [OptionDeclaration] {
        CommandDeclarations(of: command).options
            + command.configuration.subcommands.flatMap { optionsBelow($0) }
    }

    /// The command type a path of subcommand names leads to (as far as it is valid).
    public static func resolve(_ path: [String], root: any Command.Type) -> any Command.Type {
        var command = root
        for word in path {
            guard let sub = try? subcommand(word, of: command, path: []) else { break }
            command = sub
        }
        return command
    }

    /// The option `word` names when its leading dashes are a dash that is not ASCII's hyphen
    /// (`—dry-run`, `–ids`: a word processor or a web page made `--` an em or en dash, or a
    /// minus sign): taken as an argument, it was "unexpected argument '—ids'", a path not
    /// found, or an image "not found", with nothing to say that the dash was the trouble.
    static func optionTypedWithADash(_ word: String, among options: [String]) -> (dash: String, option: String)? {
        guard let first = word.unicodeScalars.first, !first.isASCII, first.properties.isDash else { return nil }
        let rest = word.unicodeScalars.drop { $0 == "-" || (!$0.isASCII && $0.properties.isDash) }
        let name = "--" + String(String.UnicodeScalarView(rest)).prefix { $0 != "=" }
        guard (options + ["--help"]).contains(name) else { return nil }
        return (VisibleText.foreignCharacters(in: String(first)).joined(), name)
    }
}
