import Foundation

/// Prints a command's help from its spec in fixed sections:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum HelpPrinter {
    static func help(for command: any Command.Type, commandPath: [String]) -> String {
        let spec = command.spec
        var text = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty { text += "\n" + spec.discussion + "\n" }
        text += "\nUSAGE: \(usageLine(for: command, commandPath: commandPath))\n"
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(spec.arguments.map { ($0.name, $0.help) })
        }
        var options = spec.options.map { option -> (String, String) in
            var name = option.short.map { "-\($0), " } ?? ""
            name += option.name
            if let value = option.value { name += " <\(value)>" }
            return (name, option.help)
        }
        options.append(("-h, --help", "Show help information."))
        text += "\nOPTIONS:\n" + table(options)
        if !spec.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n" + table(spec.subcommands.map { ($0.spec.name, $0.spec.abstract) })
            let path = (["wardrobe"] + commandPath).joined(separator: " ")
            text += "\n  See '\(path) help <subcommand>' for detailed help.\n"
        }
        return text
    }

    static func usageLine(for command: any Command.Type, commandPath: [String]) -> String {
        let path = (["wardrobe"] + commandPath).joined(separator: " ")
        return command.spec.subcommands.isEmpty ? "\(path) \(command.spec.usage)" : "\(path) <subcommand>"
    }

    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(30, rows.map(\.0.count).max() ?? 0)
        return rows.map { name, help in
            let padded = name.count <= width ? name.padding(toLength: width, withPad: " ", startingAt: 0) : name + "\n" + String(repeating: " ", count: width + 2)
            return "  \(padded)  \(help)"
        }.joined(separator: "\n") + "\n"
    }
}
