/// A command line that cannot be run: printed with the usage line and exit 64.
struct UsageError: Error, Sendable {
    var message: String
    /// The words of the command that was being parsed, e.g. `["model", "info"]`.
    var commandPath: [String]

    init(_ message: String, commandPath: [String] = []) {
        self.message = message
        self.commandPath = commandPath
    }
}
