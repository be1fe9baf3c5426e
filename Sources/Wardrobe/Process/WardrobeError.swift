/// What can go wrong in a wardrobe use case, in one line a user can act on.
public enum WardrobeError: Error, Equatable, CustomStringConvertible {
    case model(path: String, reason: String)
    case noBundledModel
    case catalogue(path: String, reason: String)
    case notFound(String)
    case invalidArgument(String)
    /// The system refused something the work needs (a thread, memory).
    case system(String)

    public var description: String {
        switch self {
        case .model(let path, let reason): "model \(path): \(reason)"
        case .noBundledModel:
            "no model found: the bundled clothing.aimodel is not installed beside the binary; pass --model FILE"
        case .catalogue(let path, let reason): "catalogue \(path): \(reason)"
        case .notFound(let what): "\(what) not found"
        case .invalidArgument(let what): what
        case .system(let what): what
        }
    }
}
