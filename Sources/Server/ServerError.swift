/// What can stop `wardrobe serve` from starting; each message says what to change.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidArgument(String)
    case cannotListen(String)

    public var description: String {
        switch self {
        case .invalidArgument(let message), .cannotListen(let message): message
        }
    }
}
