/// The rows of a help text's sections, as the tests that walk every command read them: a
/// row starts two spaces in with its name; the lines its help is filled onto start further in.
enum HelpSections {
    /// The names the SUBCOMMANDS section lists.
    static func subcommands(_ help: String) -> [String] {
        rows(of: "SUBCOMMANDS", in: help).compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The rows of the OPTIONS section, each from its name on (`--db <PATH>  The catalogue ...`).
    static func options(_ help: String) -> [Substring] {
        rows(of: "OPTIONS", in: help)
    }

    /// The section's rows, up to the blank line that ends it.
    private static func rows(of section: String, in help: String) -> [Substring] {
        guard let start = help.range(of: "\n\(section):\n") ?? help.range(of: "\(section):\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("  ") }.filter { $0.dropFirst(2).first != " " }.map { $0.dropFirst(2) }
    }
}
