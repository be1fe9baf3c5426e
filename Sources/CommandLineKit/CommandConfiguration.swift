/// The words of a command that are not options: its name, what help says
/// about it, its subcommands, and the forms of it that exclude each other.
/// Its options, arguments and usage line come from its declarations.
/// Unchecked: it holds command metatypes, which are immutable.
public struct CommandConfiguration: @unchecked Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var subcommands: [any Command.Type]
    /// Ways of calling the command that exclude each other, for its usage line
    /// (`classify [options] (FILE... | --sample)`).
    public var alternatives: [Alternatives]

    public init(name: String, abstract: String, alternatives: [Alternatives] = [], discussion: String = "",
                subcommands: [any Command.Type] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.alternatives = alternatives
        self.subcommands = subcommands
    }
}
