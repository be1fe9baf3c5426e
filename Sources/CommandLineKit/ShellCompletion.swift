import Foundation

/// Shell completion scripts written from the same declarations as help (as
/// swift-argument-parser does): subcommands at every level, each command's
/// options, and the values of options the tool names (`--label`: the
/// labels; `--prep`: the recipes) or declares (an `ArgumentChoice`'s words).
/// Options whose value is a file complete file names. Adding an option to a
/// command adds it here too.
public enum ShellCompletion {
    public enum Shell: String, ArgumentChoice {
        case bash, zsh, fish
    }

    /// One command in the tree, with the words that lead to it.
    struct Node {
        var path: [String]
        var command: any Command.Type
        var options: [OptionDeclaration]
        /// The option whose words the first argument completes as (see `ArgumentDeclaration`).
        var firstWordCompletesAs: String?
        var subcommands: [String] { command.configuration.subcommands.map { $0.configuration.name } }
    }

    /// The script for `shell`. `values` maps an option's name (`--label`) to the
    /// words it takes, beside those of options declared as an `ArgumentChoice`;
    /// other options with a value complete file names.
    public static func script(for shell: Shell, root: any Command.Type, values: [String: [String]]) -> String {
        let nodes = tree(root, path: [])
        var values = values
        for option in nodes.flatMap(\.options) where values[option.name] == nil {
            values[option.name] = option.choices
        }
        switch shell {
        case .bash: return bash(nodes, name: root.configuration.name, values: values)
        case .zsh:
            // zsh runs the bash function through its bash compatibility layer.
            return "#compdef \(root.configuration.name)\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + bash(nodes, name: root.configuration.name, values: values)
        case .fish: return fish(nodes, name: root.configuration.name, values: values)
        }
    }

    static func tree(_ command: any Command.Type, path: [String]) -> [Node] {
        let declarations = CommandDeclarations(of: command)
        let node = Node(path: path, command: command, options: declarations.options,
                        firstWordCompletesAs: declarations.arguments.first?.firstWordCompletesAs)
        return [node] + command.configuration.subcommands.flatMap { tree($0, path: path + [$0.configuration.name]) }
    }

    // MARK: - bash (and zsh)

    private static func bash(_ nodes: [Node], name: String, values: [String: [String]]) -> String {
        let function = "_" + name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
        let files = function + "_files"
        let valueOptions = Set(nodes.flatMap { $0.options.filter { !$0.isFlag }.map(\.name) }).sorted()
        let groups = nodes.filter { !$0.subcommands.isEmpty }
        // File names are added one a line, never split at spaces as `$(compgen -f)` would
        // split them; `-o filenames` has bash quote them and mark folders when it inserts one.
        var text = """
            # \(name) completion for bash (and zsh through bashcompinit), written by '\(name) completions'.
            \(files)() {
                local file
                compopt -o filenames 2>/dev/null
                while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$1")
            }
            \(function)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" word i before args=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    case "$word" in
                        \(valueOptions.joined(separator: "|"))) ((i++)) ;;
                        -*) ;;
                        *)
                            before="$path"
                            case "$path" in

            """
        for group in groups {
            text += "                    \(quoted(group.path.joined(separator: " ")))) case \"$word\" in "
                + group.subcommands.joined(separator: "|") + ") path=\"${path:+$path }$word\" ;; esac ;;\n"
        }
        // A word that leads to no subcommand is the command's argument: args counts them.
        text += """
                            esac
                            [[ "$path" == "$before" ]] && ((args++)) ;;
                    esac
                done
                case "$prev" in

            """
        for option in valueOptions {
            if let words = values[option] {
                text += "        \(option)) COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\")); return ;;\n"
            } else {
                text += "        \(option)) COMPREPLY=(); \(files) \"$cur\"; return ;;\n"
            }
        }
        text += """
                esac
                case "$path" in

            """
        for node in nodes {
            let options = node.options.map(\.name) + ["--help"]
            let words = (cursorWords(node) + options).joined(separator: " ")
            let fileNames = node.subcommands.isEmpty ? "; \(files) \"$cur\"" : ""
            var offered = "COMPREPLY=($(compgen -W \(quoted(words)) -- \"$cur\"))"
            if let option = node.firstWordCompletesAs, let firstWords = values[option] {
                // The first argument's words (`label`'s labels), then the options as elsewhere.
                let first = (firstWords + options).joined(separator: " ")
                offered = "if ((args == 0)); then COMPREPLY=($(compgen -W \(quoted(first)) -- \"$cur\")); else \(offered); fi"
            }
            text += "        \(quoted(node.path.joined(separator: " ")))) \(offered)\(fileNames) ;;\n"
        }
        text += """
                esac
            }
            complete -F \(function) \(name)

            """
        return text
    }

    /// Words offered where no option is being completed: subcommands (and `help`) for a group.
    private static func cursorWords(_ node: Node) -> [String] {
        node.subcommands.isEmpty ? [] : node.subcommands + ["help"]
    }

    // MARK: - fish

    private static func fish(_ nodes: [Node], name: String, values: [String: [String]]) -> String {
        var lines = ["# \(name) completion for fish, written by '\(name) completions'.", "complete -c \(name) -f"]
        let groupNames = nodes.filter { !$0.path.isEmpty && !$0.subcommands.isEmpty }.map { $0.path.last! }
        for node in nodes {
            let condition = fishCondition(node, groupNames: groupNames)
            for sub in node.command.configuration.subcommands {
                // A group's subcommands are offered until one of them is typed.
                let none = node.subcommands.joined(separator: " ")
                let offered = node.path.isEmpty ? "__fish_use_subcommand"
                    : "\(condition); and not __fish_seen_subcommand_from \(none)"
                lines.append("complete -c \(name) -n \(quoted(offered)) -a \(sub.configuration.name) -d \(quoted(firstSentence(sub.configuration.abstract)))")
            }
            guard node.subcommands.isEmpty else { continue }
            if let option = node.firstWordCompletesAs, let firstWords = values[option] {
                lines.append("complete -c \(name) -n \(quoted(condition)) -a \(quoted(firstWords.joined(separator: " ")))")
            }
            for option in node.options {
                var line = "complete -c \(name) -n \(quoted(condition)) -l \(option.name.dropFirst(2))"
                if let short = option.short { line += " -s \(short)" }
                if !option.isFlag {
                    line += values[option.name].map { " -x -a \(quoted($0.joined(separator: " ")))" } ?? " -r -F"
                }
                lines.append(line + " -d \(quoted(firstSentence(option.help)))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// True in fish when the words leading to `node` have been typed (and, for a
    /// command at the top, no group whose subcommand could share its name).
    private static func fishCondition(_ node: Node, groupNames: [String]) -> String {
        guard !node.path.isEmpty else { return "__fish_use_subcommand" }
        var parts = node.path.map { "__fish_seen_subcommand_from \($0)" }
        let others = groupNames.filter { !node.path.contains($0) }
        if !others.isEmpty { parts.append("not __fish_seen_subcommand_from " + others.joined(separator: " ")) }
        return parts.joined(separator: "; and ")
    }

    // MARK: - Words

    private static func firstSentence(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard let end = line.range(of: ". ") else { return line }
        return String(line[..<end.lowerBound])
    }

    /// In single quotes, for both shells: a single quote inside is closed, escaped and reopened.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
