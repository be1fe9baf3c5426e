/// The words of a command that are not options: its name, what help says
/// about it, and its subcommands. Its options come from its declarations.
/// Unchecked: it holds command metatypes, which are immutable.
public struct CommandConfiguration: @unchecked Sendable {
    public var name: String
    public var abstract: String
    /// The part of the usage line after the command path, e.g. `[options] PATH...`.
    public var usage: String
    public var discussion: String
    public var subcommands: [any Command.Type]

    public init(name: String, abstract: String, usage: String = "[options]", discussion: String = "",
                subcommands: [any Command.Type] = []) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.subcommands = subcommands
    }
}
