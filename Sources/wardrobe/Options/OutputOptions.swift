import CommandLineKit

/// `--json` and `--quiet`, for commands that report progress as they work.
struct OutputOptions: ParsableArguments {
    @Flag(name: "--json", help: JSONOutputOption.help)
    var json: Bool
    @Flag(name: "--quiet", short: "q", help: "Print nothing but errors and the result.")
    var quiet: Bool

    /// Progress lines only for a person watching plain output.
    var showsProgress: Bool { !quiet && !json }
}
