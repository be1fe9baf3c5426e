import Foundation

/// Prints a command's help from its configuration and declarations, in fixed
/// sections: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
public enum HelpPrinter {
    public static func help(for command: any Command.Type, commandPath: [String], root: any Command.Type) -> String {
        let configuration = command.configuration
        let declarations = CommandDeclarations(of: command)
        var text = "OVERVIEW: \(configuration.abstract)\n"
        if !configuration.discussion.isEmpty { text += "\n" + configuration.discussion + "\n" }
        text += "\nUSAGE: \(usageLine(for: command, commandPath: commandPath, root: root))\n"
        let arguments = declarations.arguments.compactMap { argument in argument.help.map { (argument.name, $0) } }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(arguments)
        }
        var options = declarations.options.map { option -> (String, String) in
            var name = option.short.map { "-\($0), " } ?? ""
            name += option.name
            if let value = option.valueName { name += " <\(value)>" }
            return (name, option.help)
        }
        options.append(("-h, --help", "Show help information."))
        text += "\nOPTIONS:\n" + table(options)
        if !configuration.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
                + table(configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) })
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

    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(30, rows.map(\.0.count).max() ?? 0)
        return rows.map { name, help in
            let padded = name.count <= width ? name.padding(toLength: width, withPad: " ", startingAt: 0)
                : name + "\n" + String(repeating: " ", count: width + 2)
            return "  \(padded)  \(help)"
        }.joined(separator: "\n") + "\n"
    }
}
