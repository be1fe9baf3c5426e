/// What can go wrong in a wardrobe use case, in one line a user can act on.
public enum WardrobeError: Error, Equatable, CustomStringConvertible {
    case model(path: String, reason: String)
    case noBundledModel
    case catalogue(path: String, reason: String)
    /// The catalogue's file was removed or replaced while this process held it open: a write
    /// would go to the file no longer there and be lost, so none is made.
    case catalogueMoved(path: String)
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
        case .catalogueMoved(let path):
            "catalogue \(path): the file was removed or replaced since it was opened, so nothing was written "
                + "(it would have gone to the file no longer there); open the catalogue again"
        case .notFound(let what): "\(what) not found"
        case .invalidArgument(let what): what
        case .system(let what): what
        }
    }
}
