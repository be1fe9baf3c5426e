/// A command line that cannot be run: printed with the usage line and exit 64.
public struct UsageError: Error, Sendable, Equatable {
    public var message: String
    /// The words of the command that was being parsed, e.g. `["model", "info"]`.
    public var commandPath: [String]

    public init(_ message: String, commandPath: [String] = []) {
        self.message = message
        self.commandPath = commandPath
    }
}
