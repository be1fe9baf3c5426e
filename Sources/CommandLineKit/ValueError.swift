/// Thrown by an option's or argument's `transform` when a word is not a valid
/// value. The message is made from the option's declared name, so the name is
/// written once, in the declaration. Any other error a transform throws is
/// shown as it describes itself.
public struct ValueError: Error {
    public let message: @Sendable (_ name: String) -> String

    /// `message` gets the option's name, e.g. "--format", to write
    /// "unknown --format 'x'; use csv or json".
    public init(_ message: @escaping @Sendable (_ name: String) -> String) {
        self.message = message
    }

    /// `reason`, after the option's name: "--since: not a date".
    public static func naming(_ reason: String) -> ValueError {
        ValueError { "\($0): \(reason)" }
    }
}
