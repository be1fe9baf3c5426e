/// A set of options, flags and arguments, each declared once on the property
/// it fills (`@Option`, `@Flag`, `@Argument`, `@OptionGroup`). The parser
/// makes a fresh value with `init()`, finds the declarations on it, fills them
/// from the command line and then calls `validate()`.
public protocol ParsableArguments {
    init()
    /// Checks that involve more than one value (e.g. `--min` above `--max`).
    /// Runs after every value has been read; a thrown `UsageError` needs no
    /// command path, the parser adds it.
    func validate() throws(UsageError)
}

extension ParsableArguments {
    public func validate() throws(UsageError) {}
}

/// One command of a tool: what it accepts (its declarations and
/// `configuration`) and what it does (`run`, returning the exit status).
public protocol Command: ParsableArguments {
    static var configuration: CommandConfiguration { get }
    func run(_ console: Console) throws -> ExitStatus
}

/// A command that only groups subcommands (`wardrobe model ...`): named
/// alone, it prints its help.
public protocol CommandGroup: Command {}

extension CommandGroup {
    public func run(_ console: Console) throws -> ExitStatus { .success }
}
