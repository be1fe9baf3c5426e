import CommandLineKit

/// `--json` alone, for commands that print nothing but their result anyway.
struct JSONOutputOption: ParsableArguments {
    static let help = "Print the result as JSON on stdout, nothing else."

    @Flag(name: "--json", help: JSONOutputOption.help)
    var json: Bool
}
