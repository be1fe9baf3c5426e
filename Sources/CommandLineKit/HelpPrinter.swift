import Foundation

/// Prints a command's help from its configuration and declarations, in fixed
/// sections: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, filled to `width`
/// columns (the terminal's, else 80): a line longer than the terminal wrapped where
/// it hit the edge, mid-word, and an option's help ran under the option names.
public enum HelpPrinter {
    /// The width help is filled to when stdout is no terminal, and the narrowest it goes.
    public static let defaultWidth = 80
    static let narrowest = 40

    public static func help(for command: any Command.Type, commandPath: [String], root: any Command.Type,
                            width: Int = defaultWidth) -> String {
        let width = max(narrowest, width)
        let configuration = command.configuration
        let declarations = CommandDeclarations(of: command)
        var text = "OVERVIEW: " + Format.filled(configuration.abstract, width: width, firstLineUsed: 10) + "\n"
        if !configuration.discussion.isEmpty { text += "\n" + Format.filled(configuration.discussion, width: width) + "\n" }
        text += "\nUSAGE: " + Format.filled(usageLine(for: command, commandPath: commandPath, root: root), width: width,
                                             indent: 9, firstLineUsed: 7) + "\n"
        let arguments = declarations.arguments.compactMap { argument in argument.help.map { (argument.name, $0) } }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(arguments, width: width)
        }
        var options = declarations.options.map { option -> (String, String) in
            var name = option.short.map { "-\($0), " } ?? ""
            name += option.name
            if let value = option.valueName { name += " <\(value)>" }
            return (name, option.help)
        }
        options.append(("-h, --help", "Show help information."))
        text += "\nOPTIONS:\n" + table(options, width: width)
        if !configuration.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
                + table(configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) }, width: width)
            text += "\n  See '\(commandLine(commandPath, root: root)) help <subcommand>' for detailed help.\n"
        }
        return text
    }

    public static func usageLine(for command: any Command.Type, commandPath: [String], root: any Command.Type) -> String {
        let path = commandLine(commandPath, root: root)
        guard command.configuration.subcommands.isEmpty else { return "\(path) <subcommand>" }
        let usage = CommandDeclarations(of: command).usage
        return usage.isEmpty ? path : "\(path) \(usage)"
    }

    /// The tool's name and the subcommands, as typed: `wardrobe model info`.
    public static func commandLine(_ commandPath: [String], root: any Command.Type) -> String {
        ([root.configuration.name] + commandPath).joined(separator: " ")
    }

    /// Names in a column of at most 30, each help filled beside its name (a longer name
    /// stands on its own line, its help under it).
    private static func table(_ rows: [(String, String)], width: Int) -> String {
        let nameWidth = min(30, rows.map(\.0.count).max() ?? 0)
        let helpIndent = nameWidth + 4
        return rows.map { name, help in
            let padded = name.count <= nameWidth ? name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                : name + "\n" + String(repeating: " ", count: nameWidth + 2)
            return "  \(padded)  " + Format.filled(help, width: width, indent: helpIndent, firstLineUsed: helpIndent)
        }.joined(separator: "\n") + "\n"
    }
}
