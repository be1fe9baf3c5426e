import CommandLineKit

/// A small tool declared the way wardrobe's commands are, for testing the
/// frame without wardrobe: `tool copy`, `tool group info`.
struct Tool: Command {
    static let configuration = CommandConfiguration(
        name: "tool", abstract: "A tool for tests.",
        subcommands: [CopyCommand.self, GroupCommand.self])

    @Flag(name: "--version", help: "Show the version.")
    var version: Bool

    func validate() throws(UsageError) {
        guard version else { throw UsageError("missing subcommand") }
    }

    func run(_ console: Console) throws -> ExitStatus { .success }
}

struct OutputGroup: ParsableArguments {
    @Flag(name: "--json", help: "Print JSON.")
    var json: Bool
    @Flag(name: "--quiet", short: "q", help: "Print less.")
    var quiet: Bool
}

/// A value with a transform that can refuse a word.
struct Weekday: Equatable {
    static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    var index: Int

    static func parse(_ text: String) throws -> Weekday {
        guard let index = names.firstIndex(of: text) else {
            throw ValueError { "unknown \($0) '\(text)'; use one of: \(names.joined(separator: ", "))" }
        }
        return Weekday(index: index)
    }
}

struct CopyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "copy", abstract: "Copy files.",
        discussion: "Copies each FILE.")

    @Argument(name: "FILE...", help: "The files to copy.")
    var files: [String]
    @Option(name: "--count", value: "N", help: "How many copies.", in: 1...10)
    var count = 1
    @Option(name: "--offset", value: "N", help: "Shift every number by N.", in: -100...100)
    var offset = 0
    @Option(name: "--to", value: "DIR", help: "Where the copies go.")
    var destination: String?
    @Option(name: "--tag", value: "TAG", help: "A tag; give several.")
    var tag: [String]
    @Option(name: "--day", value: "DAY", help: "Only on DAY.", transform: Weekday.parse)
    var day: Weekday?
    @Option(name: "--share", value: "P", help: "A share between 0 and 1.", in: 0...1)
    var share: Double?
    @Flag(name: "--verbose", short: "v", help: "Say what is copied.")
    var verbose: Bool
    @Flag(name: "--dry-run", help: "Show what would be copied.")
    var dryRun: Bool
    @OptionGroup var output: OutputGroup

    func validate() throws(UsageError) {
        if verbose && output.quiet { throw UsageError("--verbose and --quiet cannot be combined") }
    }

    func run(_ console: Console) throws -> ExitStatus { .success }
}

struct GroupCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "group", abstract: "Commands in a group.",
        subcommands: [InfoCommand.self])
}

struct InfoCommand: Command {
    static let configuration = CommandConfiguration(name: "info", abstract: "Show one file.")

    @Argument(name: "FILE", help: "The file.")
    var file: String?
    @Option(name: "--out", value: "FILE", help: "Where to write.")
    var out: String

    func run(_ console: Console) throws -> ExitStatus { .success }
}

/// Words from a fixed set, and forms that exclude each other.
struct PackCommand: Command {
    enum Level: String, ArgumentChoice {
        case fast, small, bestSize = "best-size"
    }

    static let configuration = CommandConfiguration(
        name: "pack", abstract: "Pack files.",
        alternatives: [.oneOf(["NAME"], ["--all"]), .atMostOneOf(["--level"], ["--store"])])

    @Argument(name: "NAME", help: "The archive.")
    var name: String?
    @Flag(name: "--all", help: "Every file.")
    var all: Bool
    @Option(name: "--level", value: "LEVEL", help: "How hard to try.")
    var level: Level?
    @Flag(name: "--store", help: "Do not compress.")
    var store: Bool
    @Option(name: "--order", value: "ORDER", help: "The order of the files.")
    var order = Level.fast
    @Option(name: "--out", value: "DIR", help: "Where the archive goes.")
    var out: String
    @Argument(name: "LEVEL...", help: "The level of each file.")
    var levels: [Level]

    func run(_ console: Console) throws -> ExitStatus { .success }
}

/// Alternatives that name what nothing declares.
struct StrayAlternativeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "stray", abstract: "Names a stranger.",
        alternatives: [.oneOf(["NAME", "FILE..."], ["--sample"], ["--help"], ["FILE"])])

    @Argument(name: "NAME FILE...", help: "A name, then files.")
    var words: [String] = []

    func run(_ console: Console) throws -> ExitStatus { .success }
}

/// Declarations with mistakes in them, for `problems`.
struct FaultyArguments: ParsableArguments {
    @Flag(name: "--json", help: "Print JSON.")
    var json: Bool
    @OptionGroup var output: OutputGroup
    @Option(name: "db", value: "PATH", help: "No dashes.")
    var database: String?
    @Flag(name: "--human", short: "h", help: "Clashes with -h for help.")
    var human: Bool
    @Argument(name: "WORD...", help: "Takes the rest.")
    var words: [String]
    @Argument(name: "LAST", help: "Never gets a word.")
    var last: String?
}
