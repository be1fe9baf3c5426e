import Foundation

/// A manual page (roff, section 1) written from the same configuration and
/// declarations as help: the root's overview, then every command in the tree
/// with its usage, discussion, arguments and options. `man` reads it from
/// `share/man/man1`; `make install` puts it there.
public enum ManualPage {
    public static func render(root: any Command.Type, version: String) -> String {
        let name = root.configuration.name
        var page = ".TH \(name.uppercased()) 1 \"\" \(quoted("\(name) \(version)")) \"User Commands\"\n"
        page += ".SH NAME\n\(escaped(name)) \\- \(escaped(root.configuration.abstract))\n"
        page += ".SH SYNOPSIS\n.B \(escaped(name))\n\(escaped("<subcommand> [options]"))\n"
        if !root.configuration.discussion.isEmpty {
            page += ".SH DESCRIPTION\n" + paragraphs(root.configuration.discussion)
        }
        page += ".SH COMMANDS\n"
        for command in root.configuration.subcommands {
            page += section(command, path: [command.configuration.name], root: root)
        }
        page += ".SH SEE ALSO\n\(escaped(name)) help <command>, \(escaped(name)) <command> \\-\\-help\n"
        return page
    }

    private static func section(_ command: any Command.Type, path: [String], root: any Command.Type) -> String {
        let configuration = command.configuration
        let declarations = CommandDeclarations(of: command)
        var text = ".SS \(quoted(HelpPrinter.usageLine(for: command, commandPath: path, root: root)))\n"
        text += escaped(configuration.abstract) + "\n"
        if !configuration.discussion.isEmpty { text += ".PP\n" + paragraphs(configuration.discussion) }
        for argument in declarations.arguments {
            guard let help = argument.help else { continue }
            text += ".TP\n.I \(escaped(argument.name))\n\(escaped(help))\n"
        }
        for option in declarations.options {
            var name = option.short.map { "\\-\($0), " } ?? ""
            name += escaped(option.name)
            if let value = option.valueName { name += " \\fI\(escaped(value))\\fR" }
            text += ".TP\n.B \(name)\n\(escaped(option.help))\n"
        }
        for sub in configuration.subcommands {
            text += section(sub, path: path + [sub.configuration.name], root: root)
        }
        return text
    }

    /// Blank-line separated paragraphs, each joined into one filled paragraph.
    private static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            escaped(paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
        }.joined(separator: "\n.PP\n") + "\n"
    }

    /// Text roff shows as written: backslashes and dashes escaped, and no line
    /// starting with a control character.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}
