/// What a command accepts, declared once: the parser reads options by it and
/// the help text is printed from it, so the two cannot disagree.
/// Unchecked: it holds command metatypes, which are immutable.
struct CommandSpec: @unchecked Sendable {
    var name: String
    var abstract: String
    /// The part of the usage line after the command path, e.g. `[options] PATH...`.
    var usage: String = "[options]"
    var discussion: String = ""
    var arguments: [(name: String, help: String)] = []
    var options: [OptionSpec] = []
    var subcommands: [any Command.Type] = []
}

/// A `--name` option: a flag when `value` is nil, otherwise it takes one value.
struct OptionSpec: Sendable {
    var name: String
    var short: Character? = nil
    var value: String? = nil
    var help: String
    /// Options that may be given more than once collect every value.
    var repeatable = false

    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, help: help)
    }

    static func value(_ name: String, _ placeholder: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, help: help, repeatable: repeatable)
    }
}

extension OptionSpec {
    /// Options shared by every command that opens the catalogue.
    static let database = value("--db", "PATH",
        "The catalogue file (default: $WARDROBE_DB, else $XDG_DATA_HOME/wardrobe/catalogue.sqlite).")
    static let model = value("--model", "FILE", "The model to use (default: the bundled clothing.aimodel).")
    static let json = flag("--json", "Print the result as JSON on stdout, nothing else.")
    static let quiet = flag("--quiet", short: "q", "Print nothing but errors and the result.")
}
